package contain

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shedProbeVar makes the test binary report its file-backed resident
// memory before and after ShedBinaryPages, then exit.
const shedProbeVar = "PROCS_TEST_SHED_PROBE"

// runShedProbeIfRequested is the probe's side: the test binary's start has
// touched what a procs binary's start touches.
func runShedProbeIfRequested() {
	if os.Getenv(shedProbeVar) != "1" {
		return
	}
	before := ownRSSFileKB()
	ShedBinaryPages()
	fmt.Println(before, ownRSSFileKB())
	os.Exit(0)
}

// TestShedBinaryPagesGivesBackWhatTheStartTouched: a procs binary's start
// touches megabytes of code and read-only data it never needs again;
// ShedBinaryPages gives them back (issue 34 item 6) and the process goes
// on running.
func TestShedBinaryPagesGivesBackWhatTheStartTouched(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), shedProbeVar+"=1")
	out, err := cmd.Output()
	require.NoError(t, err)
	var before, after int
	_, err = fmt.Sscan(string(out), &before, &after)
	require.NoError(t, err, "probe said %q", out)
	assert.Less(t, after, before/2, "file-backed resident kB before %d, after %d", before, after)
}

// ownRSSFileKB is this process's file-backed resident memory, in kB.
func ownRSSFileKB() int {
	data, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "RssFile:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}
