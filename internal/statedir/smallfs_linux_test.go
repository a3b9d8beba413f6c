package statedir

import (
	"fmt"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/procsdev/procs/internal/testenv"
)

// mountSmallFS mounts a 1 MiB tmpfs on dir for the test, or skips it.
func mountSmallFS(t *testing.T, dir string) {
	t.Helper()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		testenv.Missing(t, fmt.Sprintf("cannot mount a 1 MiB tmpfs here (needs root): %v", err))
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
}
