//go:build unix

package osproc

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// nameSeparators are the characters that make a command's name a path.
const nameSeparators = "/"

// emptyElementIsDir: an empty element of PATH is the working directory,
// as it is for sh (dash, bash).
const emptyElementIsDir = true

func sameEnvKey(a, b string) bool { return a == b }

// programExt returns nil when file is a program the child may run: a file,
// not a folder, that procs' user may execute (sh skips the others and goes
// on searching). The extension to add is always "" on Unix.
func programExt(file string, _ []string) (string, error) {
	info, err := os.Stat(file)
	switch {
	case err != nil:
		return "", underlying(err)
	case info.IsDir():
		return "", syscall.EISDIR
	}
	if err := unix.Access(file, unix.X_OK); err != nil {
		return "", err
	}
	return "", nil
}
