//go:build unix

package contain

import (
	"os"
	"syscall"

	"github.com/procsdev/procs/internal/osproc"
)

// childPipe makes a pipe between procs and a child: procs' end is
// non-blocking, in Go's poller, and the child's end is a plain blocking
// descriptor, as the child expects and as the poller need never know of
// (os.Pipe puts both ends in it, and a start takes the child's out again:
// four system calls per end for nothing). Procs reads ours (the read end),
// or writes it when toChild (the write end).
func childPipe(toChild bool) (ours, theirs *os.File, err error) {
	r, w, err := osproc.PipeCloexec()
	if err != nil {
		return nil, nil, err
	}
	own, child := r, w
	if toChild {
		own, child = w, r
	}
	if err := syscall.SetNonblock(own, true); err != nil {
		syscall.Close(own)
		syscall.Close(child)
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	// NewFile puts a non-blocking descriptor in the poller, and leaves a
	// blocking one out of it.
	return os.NewFile(uintptr(own), "|0"), os.NewFile(uintptr(child), "|1"), nil
}
