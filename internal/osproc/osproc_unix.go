//go:build unix

package osproc

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// SIGCONT resumes a stopped process (a no-op signal where there is none).
const SIGCONT = syscall.SIGCONT

// DetachedAttrs starts a process in a session of its own, with no
// controlling terminal: the background procs of `up -d`.
func DetachedAttrs() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// OwnGroupAttrs starts a process in a process group of its own, and
// nothing more: a Ctrl-C at the terminal does not reach it (the watchdog).
func OwnGroupAttrs() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// Start starts cmd, whose SysProcAttr came from GroupAttrs or
// SessionAttrs. On Unix that is all; Windows adds its job object here.
func Start(cmd *exec.Cmd) error { return cmd.Start() }

// Signal sends sig to pid.
func Signal(pid int, sig syscall.Signal) error { return unix.Kill(pid, sig) }

// SignalGroup sends sig to every process of the process group pgid (the
// group a child of GroupAttrs or SessionAttrs leads: pgid is its pid).
func SignalGroup(pgid int, sig syscall.Signal) error { return unix.Kill(-pgid, sig) }

// Alive reports whether pid exists (a zombie, or another user's process,
// included).
func Alive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// GroupAlive reports whether any process procs may signal is left in the
// group pgid.
func GroupAlive(pgid int) bool { return unix.Kill(-pgid, 0) == nil }

// Reap collects the exit of pid, a child of this process, if it has
// exited, and reports whether it did (or is not a child to reap).
func Reap(pid int) bool {
	var status unix.WaitStatus
	got, err := unix.Wait4(pid, &status, unix.WNOHANG, nil)
	return got == pid || err != nil
}

// ReapGroup collects every exited child of this process in the group pgid:
// members that exited after procs adopted them are its zombies, still in
// the group until reaped.
func ReapGroup(pgid int) {
	var status unix.WaitStatus
	for {
		if pid, _ := unix.Wait4(-pgid, &status, unix.WNOHANG, nil); pid <= 0 {
			return
		}
	}
}

// WaitGone waits until pid has exited, reaping it when it is a child of
// this process. A process that is not a child gives no event of its exit:
// it is looked at on a short backoff.
func WaitGone(pid int) {
	var status unix.WaitStatus
	if _, err := unix.Wait4(pid, &status, 0, nil); !errors.Is(err, unix.ECHILD) {
		return
	}
	for pause := time.Millisecond; Alive(pid); pause = min(2*pause, 50*time.Millisecond) {
		time.Sleep(pause)
	}
}

// Getpgid returns the process group of pid.
func Getpgid(pid int) (int, error) { return unix.Getpgid(pid) }

// Getpgrp returns the process group of the calling process.
func Getpgrp() int { return unix.Getpgrp() }

// controlFD runs fn on the descriptor of conn.
func controlFD(conn *net.UnixConn, fn func(fd int) error) error {
	raw, err := conn.SyscallConn()
	if err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	var fnErr error
	if err := raw.Control(func(fd uintptr) { fnErr = fn(int(fd)) }); err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	if fnErr != nil {
		return fmt.Errorf("peer credentials: %w", fnErr)
	}
	return nil
}

// LockFile takes an exclusive lock on f without waiting; ErrLocked when
// another process holds it. The lock goes with the process however it ends.
func LockFile(f *os.File) error {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}

// FileOwner returns the uid owning a file.
func FileOwner(info fs.FileInfo) (int, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// NotifyResize relays the terminal's window changes (SIGWINCH) to c.
func NotifyResize(c chan<- os.Signal) { signal.Notify(c, syscall.SIGWINCH) }

// InheritFile makes cmd's process inherit f, and returns how it names it
// there (its descriptor number), for an environment variable.
func InheritFile(cmd *exec.Cmd, f *os.File) string {
	cmd.ExtraFiles = append(cmd.ExtraFiles, f)
	return strconv.Itoa(2 + len(cmd.ExtraFiles))
}

// MakePrivate makes the file at path readable and writable by its owner only.
func MakePrivate(path string) error { return os.Chmod(path, 0o600) }
