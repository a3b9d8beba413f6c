//go:build !linux

package osproc

// AwaitExit returns at once where the network poller cannot wait for a
// process (no pidfd): exec.Cmd.Wait then blocks a thread, as Go does.
func AwaitExit(int) {}
