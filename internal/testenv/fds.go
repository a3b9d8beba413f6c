package testenv

import (
	"os"
	"strconv"
	"strings"
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

// FDTableSize is the size of this process's descriptor table (FDSize in
// /proc/self/status: it only grows); it skips the test where there is no
// such line (not Linux).
func FDTableSize(t testing.TB) int {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("the descriptor table's size needs /proc/self/status: %v", err)
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "FDSize:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("FDSize in /proc/self/status: %v", err)
			}
			return n
		}
	}
	t.Skip("no FDSize in /proc/self/status")
	return 0
}

// OpenFiles lists the paths of the files this process has open, from the
// links in /proc/self/fd; it skips the test where there are none (not
// Linux).
func OpenFiles(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("listing open files needs /proc/self/fd: %v", err)
	}
	var paths []string
	for _, e := range entries {
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil {
			paths = append(paths, target)
		}
	}
	return paths
}
