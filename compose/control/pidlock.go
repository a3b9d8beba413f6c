package control

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/procsdev/procs/internal/osproc"
)

// ErrAlreadyRunning is returned (wrapped) by Serve when another procs
// serves the same project folder.
var ErrAlreadyRunning = errors.New("procs is already running in this folder")

// AlreadyRunningError says which procs holds the project folder.
type AlreadyRunningError struct {
	// PID is the process id of the running procs (0 when unknown).
	PID int
}

// Error says what runs and what to do about it.
func (e *AlreadyRunningError) Error() string {
	pid := "pid unknown"
	if e.PID > 0 {
		pid = fmt.Sprintf("pid %d", e.PID)
	}
	return fmt.Sprintf("%s (%s); use `procs status`, or `procs down` first", ErrAlreadyRunning, pid)
}

// Unwrap makes errors.Is(err, ErrAlreadyRunning) hold.
func (e *AlreadyRunningError) Unwrap() error { return ErrAlreadyRunning }

// pidLock is the locked .procs/procs.pid of the running procs. The lock
// (flock) goes with the process however it ends, so a crashed procs never
// keeps the folder: the next one takes the lock and replaces its socket.
type pidLock struct {
	path string
	file *os.File
}

// lockPIDFile takes the pid file of the project or says who holds it.
func lockPIDFile(path string) (*pidLock, error) {
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("open pid file: %w", err)
		}
		if err := osproc.LockFile(f); err != nil {
			f.Close()
			if errors.Is(err, osproc.ErrLocked) {
				return nil, &AlreadyRunningError{PID: readPID(path)}
			}
			return nil, fmt.Errorf("lock pid file: %w", err)
		}
		// The holder may have removed the file between our open and lock:
		// then we hold a lock on a deleted file and must try again.
		if sameFile(f, path) {
			return &pidLock{path: path, file: f}, nil
		}
		f.Close()
	}
}

// write puts pid in the file, over what a procs that died left there. It
// writes first and then cuts the file to what it wrote: a file truncated
// to nothing and written again is one ext4 flushes to disk when it is
// closed (its guard against losing a file replaced in place), and
// release, the last step of every shutdown, would wait for that write.
func (l *pidLock) write(pid int) error {
	text := []byte(strconv.Itoa(pid) + "\n")
	if _, err := l.file.WriteAt(text, 0); err != nil {
		return fmt.Errorf("write pid file: %w", err)
	}
	if err := l.file.Truncate(int64(len(text))); err != nil {
		return fmt.Errorf("write pid file: %w", err)
	}
	return nil
}

// release removes the pid file, then drops the lock.
func (l *pidLock) release() error {
	err := os.Remove(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	return errors.Join(err, l.file.Close())
}

// readPID reads a pid file; 0 when it cannot.
func readPID(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// ownerOf returns the uid owning a file.
func ownerOf(info fs.FileInfo) (int, bool) { return osproc.FileOwner(info) }
