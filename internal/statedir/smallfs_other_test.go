//go:build !linux

package statedir

import "testing"

// mountSmallFS skips: the test mounts a tmpfs, which only Linux has.
func mountSmallFS(t *testing.T, _ string) {
	t.Helper()
	t.Skip("a 1 MiB tmpfs is mounted on Linux only")
}
