package osproc

import (
	"os"
	"syscall"
)

// PipeCloexec makes a pipe whose two ends close on exec, both blocking, as
// raw descriptors: the caller decides which end Go's poller gets (see
// os.NewFile). macOS has no pipe2: close-on-exec is set under
// syscall.ForkLock, as os.Pipe does, so that no fork inherits an end in
// between.
func PipeCloexec() (r, w int, err error) {
	var fds [2]int
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(fds[:]); err != nil {
		return -1, -1, os.NewSyscallError("pipe", err)
	}
	syscall.CloseOnExec(fds[0])
	syscall.CloseOnExec(fds[1])
	return fds[0], fds[1], nil
}
