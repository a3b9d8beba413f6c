package control

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"time"
)

// ErrNotAnswering is returned (wrapped in a *NotAnsweringError) when procs
// accepts connections but does not answer: it is stopped (Ctrl-Z, SIGSTOP)
// or wedged.
var ErrNotAnswering = errors.New("procs is not answering")

// NotAnsweringError says which procs does not answer.
type NotAnsweringError struct {
	// PID is the process id of the silent procs (0 when unknown).
	PID int
	// Runs is true when procs is known to run, not stopped: then it is
	// out of file descriptors or overloaded, and kill -CONT would not help.
	Runs bool
}

// Error names the process and what to do about it.
func (e *NotAnsweringError) Error() string {
	if e.Runs {
		return fmt.Sprintf("procs (pid %d) runs but is not answering: it may be out of file descriptors (count them with `ls /proc/%d/fd | wc -l`) or overloaded; try again, or restart it", e.PID, e.PID)
	}
	if e.PID > 0 {
		return fmt.Sprintf("procs (pid %d) is not answering (stopped?); resume it with `kill -CONT %d` or `fg` in its terminal", e.PID, e.PID)
	}
	return "procs is not answering (stopped?)"
}

// Unwrap makes errors.Is(err, ErrNotAnswering) hold.
func (e *NotAnsweringError) Unwrap() error { return ErrNotAnswering }

// Liveness timing: a ping must be answered within answerTimeout;
// during a long wait or a stream, procs is asked every pingInterval
// whether it still answers. Variables so tests can shorten them.
var (
	answerTimeout = 5 * time.Second
	pingInterval  = 2 * time.Second
)

// notAnswering is the error for this client's procs.
func (c *Client) notAnswering() error {
	pid := readPID(c.pidFile)
	return &NotAnsweringError{PID: pid, Runs: processRuns(pid)}
}

// ping asks procs for its info within answerTimeout; it returns a
// *NotAnsweringError when no answer comes in time.
func (c *Client) ping(ctx context.Context) error {
	pingCtx, cancel := context.WithTimeout(ctx, answerTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(pingCtx, http.MethodGet, "http://procs/v1/info", nil)
	if err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	err = whileBusy(pingCtx, func() error {
		resp, err := c.http.Do(req)
		if err == nil {
			resp.Body.Close() // any answer, busy included, says procs answers
		}
		return err
	})
	if err == nil {
		return nil
	}
	var opErr *net.OpError
	switch {
	case ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded):
		return context.Cause(ctx) // a signal, or the caller gave up
	case errors.Is(err, context.DeadlineExceeded):
		// No answer within answerTimeout or the caller's own deadline
		// (up --timeout 3s): either way, procs did not answer.
		return c.notAnswering()
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return fmt.Errorf("%w (%w)", ErrNotRunning, unwrapSyscall(err))
	}
	return fmt.Errorf("ping: %w", err)
}

// Watch returns a context that ends, with a *NotAnsweringError (or
// ErrNotRunning) as its cause, when procs stops answering pings while a
// caller holds a session the client does not see into (an attach): stop
// ends the watch.
func (c *Client) Watch(ctx context.Context) (watched context.Context, stop func()) {
	return c.watch(ctx)
}

// watch returns a context that ends, with a *NotAnsweringError as its
// cause, when procs stops answering pings during a long request (a wait, a
// stream). stop ends the watch and waits for its goroutine.
func (c *Client) watch(ctx context.Context) (watched context.Context, stop func()) {
	watched, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(pingInterval)
		defer ticker.Stop()
		for {
			select {
			case <-watched.Done():
				return
			case <-ticker.C:
				var silent *NotAnsweringError
				if err := c.ping(watched); errors.As(err, &silent) || errors.Is(err, ErrNotRunning) {
					cancel(err)
					return
				}
			}
		}
	}()
	return watched, func() { cancel(nil); <-done }
}

// causeOf replaces the error of a request whose context ended with why it
// ended: procs not answering, or the caller's own cause (a signal).
func causeOf(ctx context.Context, err error) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
		return cause
	}
	return err
}

// ErrPermission is returned (wrapped in a *PermissionError) when the procs
// of a folder belongs to another user.
var ErrPermission = errors.New("permission denied")

// PermissionError says that the procs of a folder (or its runtime files)
// belongs to another user, whose API this user may not use, or, when
// Unreadable, that this user may not look into the folder's runtime
// files at all, so whether a procs runs there cannot be told.
type PermissionError struct {
	// Path is the file that could not be used.
	Path string
	// UID owns it (-1 when unknown).
	UID int
	// Unreadable is set when Path is a folder this user may not look
	// into: no procs is known to run there, of this user or another.
	Unreadable bool
}

// Error says what was refused and why, and what to do.
func (e *PermissionError) Error() string {
	if e.Unreadable {
		return e.unreadableText()
	}
	owner := "another user"
	if e.UID >= 0 {
		owner = fmt.Sprintf("another user (uid %d)", e.UID)
	}
	return fmt.Sprintf("permission denied: the procs of this folder (%s) belongs to %s; run procs commands as that user", e.Path, owner)
}

// unreadableText is the Error of an Unreadable folder.
func (e *PermissionError) unreadableText() string {
	const unknown = "procs cannot tell whether a procs runs in this folder"
	switch {
	case e.UID < 0:
		return fmt.Sprintf("%s/ is not readable by this user: %s; run procs commands as its owner, or fix the folder's permissions", e.Path, unknown)
	case e.UID == os.Getuid():
		return fmt.Sprintf("%s/ is not readable by this user (its permissions forbid it): %s; fix them (chmod u+rwx %s)", e.Path, unknown, e.Path)
	}
	owner := userName(e.UID)
	return fmt.Sprintf("%s/ is not readable by this user (it belongs to %s): %s; run procs commands as %s, or fix the folder's permissions", e.Path, owner, unknown, owner)
}

// userName is the name of the user uid, or "uid N" when it has none.
func userName(uid int) string {
	id := strconv.Itoa(uid)
	if u, err := user.LookupId(id); err == nil {
		return u.Username
	}
	return "uid " + id
}

// Unwrap makes errors.Is(err, ErrPermission) hold.
func (e *PermissionError) Unwrap() error { return ErrPermission }

// permissionOr returns a *PermissionError when err comes from files of
// another user in the project's runtime folder (a refused socket, or one
// whose owner's procs closed the connection unanswered), or from a
// runtime folder this user may not look into, else err.
func permissionOr(projectDir string, err error) error {
	if err == nil {
		return nil
	}
	for _, path := range []string{filepath.Join(projectDir, stateDir, socketName), filepath.Join(projectDir, stateDir)} {
		info, statErr := os.Lstat(path)
		if statErr != nil {
			if errors.Is(statErr, fs.ErrPermission) {
				// A socket of another user there would be refused just
				// the same: it is told apart only when the folder can be
				// read.
				return unreadableFolder(filepath.Dir(path))
			}
			continue
		}
		if owner, ok := ownerOf(info); ok && owner != os.Getuid() && (errors.Is(err, fs.ErrPermission) || !errors.Is(err, ErrNotRunning)) {
			return &PermissionError{Path: path, UID: owner}
		}
	}
	if errors.Is(err, fs.ErrPermission) {
		return &PermissionError{Path: projectDir, UID: -1}
	}
	return err
}

// unreadableFolder is the *PermissionError of a folder this user may not
// look into, naming its owner when it can be told.
func unreadableFolder(dir string) *PermissionError {
	e := &PermissionError{Path: dir, UID: -1, Unreadable: true}
	if info, err := os.Stat(dir); err == nil {
		if owner, ok := ownerOf(info); ok {
			e.UID = owner
		}
	}
	return e
}
