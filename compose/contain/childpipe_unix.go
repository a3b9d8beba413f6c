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
	own := r
	if toChild {
		own = w
	}
	if err := syscall.SetNonblock(own, true); err != nil {
		syscall.Close(r)
		syscall.Close(w)
		return nil, nil, os.NewSyscallError("fcntl", err)
	}
	// NewFile puts a non-blocking descriptor in the poller, and leaves a
	// blocking one out of it. The names are os.Pipe's.
	rf, wf := os.NewFile(uintptr(r), "|0"), os.NewFile(uintptr(w), "|1")
	if toChild {
		return wf, rf, nil
	}
	return rf, wf, nil
}
