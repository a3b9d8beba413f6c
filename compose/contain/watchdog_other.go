//go:build !linux

package contain

import "os"

// unlinkedFile makes a file that is only open: a temporary file removed
// at once.
func unlinkedFile(name string) (*os.File, error) { return unlinkedTempFile(name) }

// watchdogBinary is the path of the procs binary that is running. sh has
// no way here to execute a file it holds open, so the watchdog executes
// this path when procs dies: a binary deleted meanwhile (go run deletes
// its binary as procs exits) is not found, and one replaced by an upgrade
// runs in its place.
func watchdogBinary(int) (path string, file *os.File, err error) {
	path, err = os.Executable()
	return path, nil, err
}
