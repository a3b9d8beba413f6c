package compose

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// defaultLogLimit is the size at which a process log is rotated to NAME.log.1.
const defaultLogLimit = int64(config.DefaultLogMaxSize)

// Log files and the state folder are private: what processes print (tokens,
// DSNs) is for their owner, like the control socket.
const (
	logDirPerm  = 0o700
	logFilePerm = 0o600
)

// logFile is the lossless, size-rotated log of one process (NAME.log, and
// the keep files rotated out of it, NAME.log.1 the newest): it holds the
// bytes the process wrote, unchanged (long lines, carriage returns and
// escape sequences included). The readers of a process write to it
// directly, so a slow terminal or client never makes it lose a line. A
// write that fails (a full disk) does not end the log: the error is
// reported, the bytes that could not be written are counted, and writing
// resumes as soon as the file takes bytes again.
type logFile struct {
	mu    sync.Mutex
	path  string
	limit int64
	keep  int
	f     *os.File
	size  int64
	// lineStart: the last byte written ends a line (or nothing is written).
	lineStart bool
	// failure is the write error in progress (nil while writes succeed);
	// lost counts the bytes not written since it began, lostTotal over
	// the whole life of the log.
	failure   error
	lost      int64
	lostTotal int64
	// onFailure and onResume (optional) are told when writing fails and
	// when it works again; they run with the log locked.
	onFailure func(err error)
	onResume  func(lost int64)
}

// newLogFile returns the log of a process in dir, rotated at limit bytes
// into keep older files. The file is opened by its run (openForRun), not
// here: two hundred processes would otherwise create their files one after
// another before the first of them starts.
func newLogFile(dir, name string, limit int64, keep int) *logFile {
	return &logFile{path: filepath.Join(dir, name+".log"), limit: limit, keep: keep, lineStart: true}
}

// openForRun opens the file for a run that has started, so that a process
// that prints nothing still leaves its (empty) log; a failure is reported
// like a failed write, and writing tries again.
func (l *logFile) openForRun() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		return
	}
	if err := l.open(); err != nil {
		l.failed(err, 0)
	}
}

// privateDir creates dir (and its parents) readable by the owner only, and
// makes it so if it existed; the state folder .procs that holds it too.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, logDirPerm); err != nil {
		return err
	}
	if err := os.Chmod(dir, logDirPerm); err != nil {
		return err
	}
	if parent := filepath.Dir(dir); filepath.Base(parent) == ".procs" {
		return os.Chmod(parent, logDirPerm)
	}
	return nil
}

func (l *logFile) open() error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, logFilePerm)
	if errors.Is(err, fs.ErrNotExist) {
		// The folder went away under a running procs: make it again.
		if err = privateDir(filepath.Dir(l.path)); err == nil {
			f, err = os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, logFilePerm)
		}
	}
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err == nil && info.Mode().Perm() != logFilePerm {
		err = f.Chmod(logFilePerm) // a log an older procs created 0644
	}
	if err != nil {
		f.Close()
		return err
	}
	l.f, l.size = f, info.Size()
	return nil
}

// Write appends p, split across rotations only at line ends. Callers pass
// whole lines when they can (see streamLog), so that two streams writing to
// one log do not interleave inside a line.
func (l *logFile) Write(p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(p) > 0 {
		if l.limit <= 0 || l.size+int64(len(p)) <= l.limit {
			l.put(p)
			return
		}
		room := max(l.limit-l.size, 0)
		if i := bytes.LastIndexByte(p[:room], '\n'); i >= 0 {
			l.put(p[:i+1])
			p = p[i+1:]
			l.rotate()
			continue
		}
		if l.size > 0 && l.lineStart {
			l.rotate()
			continue
		}
		// One line longer than the limit stays whole in one file.
		j := bytes.IndexByte(p, '\n')
		if j < 0 {
			l.put(p)
			return
		}
		l.put(p[:j+1])
		p = p[j+1:]
		l.rotate()
	}
}

// put writes p to the current file, reopening it after a failed rotation.
func (l *logFile) put(p []byte) {
	if l.f == nil {
		if err := l.open(); err != nil {
			l.failed(err, len(p))
			return
		}
	}
	n, err := l.f.Write(p)
	l.size += int64(n)
	if n > 0 {
		l.lineStart = p[n-1] == '\n'
	}
	if err != nil {
		l.failed(err, len(p)-n)
		return
	}
	if l.failure != nil {
		lost := l.lost
		l.failure, l.lost = nil, 0
		if l.onResume != nil {
			l.onResume(lost)
		}
	}
}

func (l *logFile) failed(err error, lost int) {
	l.lost += int64(lost)
	l.lostTotal += int64(lost)
	if l.failure == nil && l.onFailure != nil {
		l.onFailure(err)
	}
	l.failure = err
}

// setRetention changes the size and the number of rotated files from the
// next write on (a reloaded config).
func (l *logFile) setRetention(limit int64, keep int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.limit, l.keep = limit, keep
}

// rotatedPath is the name of the n-th newest rotated file.
func (l *logFile) rotatedPath(n int) string { return l.path + "." + strconv.Itoa(n) }

// rotate moves the current file to NAME.log.1 (NAME.log.1 to .2, and so
// on, the oldest beyond keep dropped) and starts a new one.
func (l *logFile) rotate() {
	if l.f != nil {
		_ = l.f.Close()
		l.f = nil
	}
	if l.keep <= 0 {
		_ = os.Remove(l.path)
	} else {
		_ = os.Remove(l.rotatedPath(l.keep))
		for n := l.keep - 1; n >= 1; n-- {
			_ = os.Rename(l.rotatedPath(n), l.rotatedPath(n+1))
		}
		_ = os.Rename(l.path, l.rotatedPath(1))
	}
	l.size, l.lineStart = 0, true
	if err := l.open(); err != nil {
		l.failed(err, 0)
	}
}

// health reports the write error in progress and the bytes lost.
func (l *logFile) health() LogHealth {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := LogHealth{Lost: l.lostTotal}
	if l.failure != nil {
		h.Error = l.failure.Error()
	}
	return h
}

// Close closes the file.
func (l *logFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// streamLog writes one output stream of a run to the log: whole lines
// together, so stdout and stderr do not interleave inside a line. A line
// still open is held back up to maxLineBytes, then written as it is; the
// bytes are never changed.
type streamLog struct {
	log  *logFile
	held []byte
	// open: bytes of an unfinished line have been written.
	open bool
}

func (s *streamLog) Write(p []byte) {
	i := bytes.LastIndexByte(p, '\n')
	if i < 0 {
		s.held = append(s.held, p...)
		if len(s.held) >= maxLineBytes {
			s.log.Write(s.held)
			s.held, s.open = s.held[:0], true
		}
		return
	}
	if len(s.held) > 0 {
		// The held line is completed on its own: a second write costs less
		// than copying the whole read behind it.
		j := bytes.IndexByte(p, '\n')
		s.log.Write(append(s.held, p[:j+1]...))
		if j < i {
			s.log.Write(p[j+1 : i+1])
		}
	} else {
		s.log.Write(p[:i+1])
	}
	rest := p[i+1:]
	if cap(s.held) > heldKept && len(rest) <= heldKept {
		s.held = nil // keep no long line's buffer behind a short partial one
	}
	s.held, s.open = append(s.held[:0], rest...), false
}

// heldKept is the buffer a streamLog keeps between reads at most, unless
// the partial line it holds is longer.
const heldKept = 4 << 10

// Close writes what is held; a stream that ended inside a line gets a
// newline, so the next output starts a line of its own.
func (s *streamLog) Close() {
	if len(s.held) > 0 || s.open {
		s.log.Write(append(s.held, '\n'))
	}
	s.held, s.open = nil, false
}

// logRetention is the size at which p's log rotates and how many rotated
// files it keeps, from the config being run (Options.LogLimit is the size
// where the config gives none).
func (e *Engine) logRetention(p *config.Proc) (limit int64, keep int) {
	logs := e.cfg.LogsOf(p)
	limit, keep = int64(logs.MaxSize), config.DefaultLogKeep
	if limit == 0 {
		limit = e.opts.LogLimit
	}
	if logs.Keep != nil {
		keep = *logs.Keep
	}
	return limit, keep
}

// applyLogRetention gives every log the retention of the config now run:
// a changed logs: setting needs no restart.
func (e *Engine) applyLogRetention() {
	for name, ps := range e.procs {
		if p := e.cfg.Procs[name]; p != nil && ps.logs != nil {
			ps.logs.setRetention(e.logRetention(p))
		}
	}
}

// LogPath is the file that keeps the output of process name (its rotated
// files are beside it, NAME.log.1 the newest). Safe for concurrent use.
func (e *Engine) LogPath(name string) string {
	return filepath.Join(e.opts.LogDir, name+".log")
}

// reportLogHealth publishes the failures and recoveries of the log of name.
func (e *Engine) reportLogHealth(name string, l *logFile) {
	l.onFailure = func(err error) {
		e.bus.Publish(Event{Type: EventInfo, Time: time.Now(), Proc: name, Reason: rules.ReasonLogFailed,
			Message: fmt.Sprintf("cannot write its log (%v); the process goes on, its output is counted until writes work again", err)})
	}
	l.onResume = func(lost int64) {
		e.bus.Publish(Event{Type: EventInfo, Time: time.Now(), Proc: name, Reason: rules.ReasonLogResumed,
			Message: fmt.Sprintf("its log is written again; %d bytes of output could not be written", lost)})
	}
}
