package testenv

import (
	"os"
	"testing"
)

// OpenFDs counts the descriptors this process has open, from
// /proc/self/fd; it skips the test where there is none (not Linux).
func OpenFDs(t testing.TB) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("counting open descriptors needs /proc/self/fd: %v", err)
	}
	return len(entries)
}
