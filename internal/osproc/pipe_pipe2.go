//go:build unix && !darwin

package osproc

import (
	"os"
	"syscall"
)

// PipeCloexec makes a pipe whose two ends close on exec, both blocking, as
// raw descriptors: the caller decides which end Go's poller gets (see
// os.NewFile). pipe2 sets close-on-exec with the pipe, so no fork can
// inherit an end in between.
func PipeCloexec() (r, w int, err error) {
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_CLOEXEC); err != nil {
		return -1, -1, os.NewSyscallError("pipe2", err)
	}
	return fds[0], fds[1], nil
}
