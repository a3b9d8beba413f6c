//go:build !linux

package osproc

// AwaitExit returns at once where the network poller cannot wait for a
// process (no pidfd): exec.Cmd.Wait then blocks a thread, as Go does.
func AwaitExit(int) {}

// ExitPending reports false where no look can leave the child waitable
// (no waitid with WNOWAIT): what a watcher saw is believed as it comes.
func ExitPending(int) bool { return false }
