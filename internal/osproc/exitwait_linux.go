package osproc

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// AwaitExit returns once the child pid has exited, without reaping it:
// exec.Cmd.Wait then collects its status at once. It waits on a pidfd
// through Go's network poller, so a waiting child holds a goroutine and
// no OS thread: os.Process.Wait blocks a thread in waitid for each child,
// and two hundred children made two hundred threads. Where pidfds are
// missing (Linux before 5.3) it returns at once and Wait blocks as before.
// procs' runs are watched by ChildExit; this is for a child started
// without a pidfd.
func AwaitExit(pid int) {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if err != nil {
		return
	}
	// A non-blocking descriptor is registered with the poller by NewFile.
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	conn, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = conn.Read(func(fd uintptr) bool { return exitedOrGone(int(fd)) })
}

// exitedOrGone reports whether the child of the pidfd has exited (or can
// no longer be waited for), leaving it waitable (WNOWAIT). An interrupted
// look is made again here: answering "not yet" after the pidfd has become
// readable would wait for an edge that never comes again.
func exitedOrGone(pidfd int) bool { return exitedLook(unix.P_PIDFD, pidfd) }

// ExitPending reports whether the child pid has exited and its exit may
// not have been taken in yet: it is a zombie, or already reaped (ECHILD).
// It reaps nothing (WNOWAIT). A run loop asks it before it believes what
// a watcher saw of the process: the watcher may have looked just before
// the exit that is about to reach the loop.
func ExitPending(pid int) bool { return exitedLook(unix.P_PID, pid) }

// exitedLook asks waitid whether the child named by idType and id has
// exited, or can no longer be waited for, without reaping it; an
// interrupted look is made again.
func exitedLook(idType, id int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(idType, id, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		// Under WNOHANG the kernel writes si_signo = SIGCHLD only when it
		// found the child exited, and 0 while it runs.
		return err != nil || info.Signo == int32(unix.SIGCHLD)
	}
}
