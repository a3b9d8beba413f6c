package compose

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAllReadyShedsTheBinarysPages: once every process is up, procs gives
// back the pages of its binary its start touched (issue 34 item 6): its
// file-backed resident memory ends well under that of this test process,
// the same binary, which has touched as much and kept it.
func TestAllReadyShedsTheBinarysPages(t *testing.T) {
	file := filepath.Join(t.TempDir(), "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`
procs:
  a: {command: "echo ready; exec sleep 300", readyPatterns: [ready]}
  b: {command: "echo ready; exec sleep 300", readyPatterns: [ready], dependsOn: [a]}
`), 0o644))
	helper := startEngineHelper(t, file)
	own := rssFileKB(t, os.Getpid())
	assert.Eventually(t, func() bool { return rssFileKB(t, helper.Process.Pid) < own/2 }, waitLimit, 20*time.Millisecond,
		"procs keeps %d kB of its binary resident once all are ready (this test process: %d kB)", rssFileKB(t, helper.Process.Pid), own)
}

// rssFileKB is the file-backed resident memory of pid, in kB.
func rssFileKB(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	require.NoError(t, err)
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "RssFile:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			require.NoError(t, err)
			return kb
		}
	}
	t.Fatalf("no RssFile in /proc/%d/status", pid)
	return 0
}
