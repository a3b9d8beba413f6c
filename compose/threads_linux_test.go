package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIdleChildrenHoldNoThreads: a procs with 64 idle children does not
// keep a thread blocked for each (os.Process.Wait holds one in waitid);
// the exits are awaited on the network poller.
func TestIdleChildrenHoldNoThreads(t *testing.T) {
	const children = 64
	var text strings.Builder
	text.WriteString("procs:\n")
	for i := range children {
		fmt.Fprintf(&text, "  p%02d:\n    command: [sh, -c, 'echo ready; exec sleep 300']\n    readyPatterns: [ready]\n", i)
	}
	file := filepath.Join(t.TempDir(), "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(text.String()), 0o600))
	helper := startEngineHelper(t, file)
	threads := threadsOf(t, helper.Process.Pid)
	assert.Less(t, threads, children/2, "threads of a procs with %d idle children", children)
}

// threadsOf reads the number of threads of pid from /proc.
func threadsOf(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	require.NoError(t, err)
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(rest))
			require.NoError(t, err)
			return n
		}
	}
	t.Fatal("no Threads line in /proc/PID/status")
	return 0
}
