//go:build !linux

package testenv

import "testing"

// MountSmallFS skips: the test mounts a tmpfs, which only Linux has.
func MountSmallFS(t testing.TB, _ string) {
	t.Helper()
	t.Skip("a 1 MiB tmpfs is mounted on Linux only")
}
