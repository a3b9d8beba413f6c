package control

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/internal/statedir"
)

// staleDialTimeout bounds the check of whether an existing socket answers.
const staleDialTimeout = time.Second

// endpoint is the listening socket of a project and what guards it.
type endpoint struct {
	dir      string // absolute project folder
	path     string // socket path
	record   string // .procs/socket, "" when not written
	lock     *pidLock
	listener net.Listener
}

// listen claims the project folder for this procs and opens its socket. It
// refuses when another procs runs there and replaces a stale socket.
func listen(projectDir string) (*endpoint, error) {
	dir, err := filepath.Abs(projectDir)
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	if _, err := statedir.Ensure(dir); err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	lock, err := lockPIDFile(filepath.Join(dir, stateDir, pidFileName))
	if err != nil {
		return nil, err
	}
	ep := &endpoint{dir: dir, lock: lock}
	if err := ep.open(); err != nil {
		ep.close()
		return nil, err
	}
	if err := lock.write(os.Getpid()); err != nil {
		ep.close()
		return nil, err
	}
	return ep, nil
}

// open creates the socket, mode 0600, accepting only this user's peers.
func (ep *endpoint) open() error {
	path, err := socketPath(ep.dir)
	if err != nil {
		return err
	}
	ep.path = path
	defaultPath := filepath.Join(ep.dir, stateDir, socketName)
	if path != defaultPath {
		if err := ensurePrivateDir(filepath.Dir(path)); err != nil {
			return fmt.Errorf("listen: %w", err)
		}
	}
	if err := removeStale(path); err != nil {
		return err
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", path, err)
	}
	ep.listener = checkPeers(ln)
	if err := osproc.MakePrivate(path); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	record := filepath.Join(ep.dir, stateDir, socketRecord)
	if path == defaultPath {
		return removeIfExists(record)
	}
	if err := os.WriteFile(record, []byte(path+"\n"), 0o644); err != nil {
		return fmt.Errorf("record socket path: %w", err)
	}
	ep.record = record
	return nil
}

// removeStale deletes a socket left by a procs that crashed: we hold the
// folder's lock, so nothing of ours answers there; if something does, it
// is not ours to remove.
func removeStale(path string) error {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if conn, err := net.DialTimeout("unix", path, staleDialTimeout); err == nil {
		conn.Close()
		return fmt.Errorf("%w: another program answers on %s", ErrAlreadyRunning, path)
	}
	return removeIfExists(path)
}

// close removes the socket, its record and the pid file, then unlocks.
func (ep *endpoint) close() error {
	var errs []error
	if ep.listener != nil {
		if err := ep.listener.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			errs = append(errs, err)
		}
		errs = append(errs, removeIfExists(ep.path))
	}
	if ep.record != "" {
		errs = append(errs, removeIfExists(ep.record))
	}
	errs = append(errs, ep.lock.release())
	return errors.Join(errs...)
}

func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return nil
}
