package compose

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// defaultLogLimit is the size at which a process log is rotated to NAME.log.1.
const defaultLogLimit = 32 << 20

// logFile is the lossless, size-rotated log of one process. The readers of a
// process write to it directly, so a slow terminal or client never makes it
// lose a line.
type logFile struct {
	mu    sync.Mutex
	path  string
	limit int64
	f     *os.File
	w     *bufio.Writer
	size  int64
}

// openLogFile opens (appending) the log of a process in dir.
func openLogFile(dir, name string, limit int64) (*logFile, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("open log of %s: %w", name, err)
	}
	l := &logFile{path: filepath.Join(dir, name+".log"), limit: limit}
	if err := l.open(); err != nil {
		return nil, fmt.Errorf("open log of %s: %w", name, err)
	}
	return l, nil
}

func (l *logFile) open() error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	l.f, l.w, l.size = f, bufio.NewWriterSize(f, 64<<10), info.Size()
	return nil
}

// WriteLine appends one line and its newline.
func (l *logFile) WriteLine(raw []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil {
		return
	}
	if l.limit > 0 && l.size+int64(len(raw))+1 > l.limit {
		l.rotate()
	}
	n, _ := l.w.Write(raw)
	_ = l.w.WriteByte('\n')
	l.size += int64(n) + 1
}

// rotate moves the current file to NAME.log.1 and starts a new one.
func (l *logFile) rotate() {
	_ = l.w.Flush()
	_ = l.f.Close()
	_ = os.Rename(l.path, l.path+".1")
	if err := l.open(); err != nil {
		l.w = nil
	}
}

// Flush writes buffered lines to the file.
func (l *logFile) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w != nil {
		_ = l.w.Flush()
	}
}

// Close flushes and closes the file.
func (l *logFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil {
		return nil
	}
	_ = l.w.Flush()
	l.w = nil
	return l.f.Close()
}
