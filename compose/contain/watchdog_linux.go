package contain

import (
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// unlinkedFile makes a file that is only open, in memory (a memfd; a
// removed temporary file where memfds are missing).
func unlinkedFile(name string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC)
	if errors.Is(err, unix.ENOSYS) {
		return unlinkedTempFile(name)
	}
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// watchdogBinary opens the procs binary that is running, for the watchdog
// to inherit as descriptor fd and execute through it: it is the file
// itself, which a path may no longer name once procs died (go run deletes
// its binary then, and so does a test binary's copy; an upgrade replaces
// it).
func watchdogBinary(fd int) (path string, file *os.File, err error) {
	file, err = os.Open("/proc/self/exe")
	return "/proc/self/fd/" + strconv.Itoa(fd), file, err
}
