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
	// lost and lostLines count the bytes and lines not written since it
	// began, lostTotal the bytes over the whole life of the log.
	failure   error
	lost      int64
	lostLines int64
	lostTotal int64
	// onFailure and onResume (optional) are told when writing fails and
	// when it works again; they run with the log locked.
	onFailure func(err error)
	onResume  func(loss logLoss)
}

// logLoss is what a log lost while its writes failed.
type logLoss struct {
	bytes, lines int64
	// err is the last write error.
	err error
}

// String is the text of the note of the loss, in the log and in `procs
// logs`: "12 lines lost (write ...: no space left on device)".
func (loss logLoss) String() string {
	lines := "lines"
	if loss.lines == 1 {
		lines = "line"
	}
	return fmt.Sprintf("%d %s lost (%v)", loss.lines, lines, loss.err)
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
// like a failed write, and writing tries again. When the file holds output
// already (of an earlier run, or of an earlier procs), a note says where
// this run begins: nothing else in the file tells two runs apart.
func (l *logFile) openForRun(run int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		if err := l.open(); err != nil {
			l.failed(err, nil)
			return
		}
	}
	if l.size > 0 {
		l.writeNote(runNote(run))
	}
}

// writeNote writes a note of procs on a line of its own.
func (l *logFile) writeNote(text string) { l.write(l.noteLine(text)) }

// noteLine is a note of procs as the file's next bytes: on a line of its
// own, ending the partial line a process left (or a failed write cut).
func (l *logFile) noteLine(text string) []byte {
	note := formatLogNote(time.Now(), text)
	if !l.lineStart {
		note = append([]byte{'\n'}, note...)
	}
	return note
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

// logOpenFlags open a log to append to it, never through a symbolic link:
// a link planted in .procs/logs would have procs append secrets to, and
// chmod, a file of the link's choosing.
const logOpenFlags = os.O_CREATE | os.O_WRONLY | os.O_APPEND | openNoFollow

func (l *logFile) open() error {
	f, err := os.OpenFile(l.path, logOpenFlags, logFilePerm)
	if errors.Is(err, fs.ErrNotExist) {
		// The folder went away under a running procs: make it again.
		if err = privateDir(filepath.Dir(l.path)); err == nil {
			f, err = os.OpenFile(l.path, logOpenFlags, logFilePerm)
		}
	}
	if err != nil {
		if info, lerr := os.Lstat(l.path); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: procs writes logs only to its own files (remove the link)", l.path)
		}
		return err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file: procs writes logs only to its own files (remove it)", l.path)
	}
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
	l.write(p)
}

// write is Write with the log locked.
func (l *logFile) write(p []byte) {
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

// put writes p to the current file, reopening it after a failed rotation;
// after a failure, the note of what was lost goes first.
func (l *logFile) put(p []byte) {
	if l.f == nil {
		if err := l.open(); err != nil {
			l.failed(err, p)
			return
		}
	}
	if l.failure != nil && !l.resume() {
		l.failed(l.failure, p)
		return
	}
	if n, err := l.writeFile(p); err != nil {
		l.failed(err, p[n:])
	}
}

// writeFile writes p to the open file, keeping its size and line state.
func (l *logFile) writeFile(p []byte) (int, error) {
	n, err := l.f.Write(p)
	l.size += int64(n)
	if n > 0 {
		l.lineStart = p[n-1] == '\n'
	}
	return n, err
}

// resume ends a failure once the file takes bytes again: it writes the
// note of the lines lost, so the gap in the file is visible where it is,
// and reports whether it could.
func (l *logFile) resume() bool {
	loss := logLoss{bytes: l.lost, lines: l.lostLines, err: l.failure}
	if loss.bytes > 0 {
		if _, err := l.writeFile(l.noteLine(loss.String())); err != nil {
			l.failure = err
			return false
		}
	}
	l.failure, l.lost, l.lostLines = nil, 0, 0
	if l.onResume != nil {
		l.onResume(loss)
	}
	return true
}

// failed counts the bytes of lost as lost (a piece of a line counts as a
// line) and reports a failure that begins.
func (l *logFile) failed(err error, lost []byte) {
	if len(lost) > 0 {
		l.lost += int64(len(lost))
		l.lostTotal += int64(len(lost))
		l.lostLines += int64(bytes.Count(lost, []byte{'\n'}))
		if lost[len(lost)-1] != '\n' {
			l.lostLines++
		}
	}
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
		l.failed(err, nil)
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
	l.onResume = func(loss logLoss) {
		msg := "its log is written again; no output was lost"
		if loss.bytes > 0 {
			msg = fmt.Sprintf("%v: %d bytes of output could not be written; its log is written again", loss, loss.bytes)
		}
		e.bus.Publish(Event{Type: EventInfo, Time: time.Now(), Proc: name, Reason: rules.ReasonLogResumed, Message: msg})
	}
}
