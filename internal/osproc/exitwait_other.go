//go:build !linux

package osproc

import (
	"errors"
	"syscall"
)

// AwaitExit returns at once where the network poller cannot wait for a
// process (no pidfd): exec.Cmd.Wait then blocks a thread, as Go does.
func AwaitExit(int) {}

// ExitPending reports false where no look can leave the child waitable
// (no waitid with WNOWAIT): what a watcher saw is believed as it comes.
func ExitPending(int) bool { return false }

// ChildExit is where procs would watch a child's exit on its pidfd; there
// are none here, and exec.Cmd.Wait waits.
type ChildExit struct{}

// WatchExit asks for nothing here (no pidfds).
func WatchExit(*syscall.SysProcAttr) *ChildExit { return &ChildExit{} }

// Watched is false: there is no pidfd.
func (*ChildExit) Watched() bool { return false }

// Wait is never called: Watched is false.
func (*ChildExit) Wait(int) (status syscall.WaitStatus, err error) {
	return status, errors.ErrUnsupported
}
