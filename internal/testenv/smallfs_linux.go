package testenv

import (
	"fmt"
	"testing"

	"golang.org/x/sys/unix"
)

// MountSmallFS mounts a 1 MiB tmpfs on dir for the test, where a full disk
// is easy to make, or reports it Missing (it needs root).
func MountSmallFS(t testing.TB, dir string) {
	t.Helper()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		Missing(t, fmt.Sprintf("cannot mount a 1 MiB tmpfs here (needs root): %v", err))
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
}
