package contain

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

// TestIdleWatchdogIsSmall: while procs lives, its watchdog is a small
// process that waits (issue 34 item 6: at most 2 MB), not a second procs.
func TestIdleWatchdogIsSmall(t *testing.T) {
	wd, err := startWatchdog(NewInstance())
	require.NoError(t, err)
	defer wd.close()
	pid := wd.cmd.Process.Pid
	require.Eventually(t, func() bool { return procStatus(t, pid, "State") == "S (sleeping)" }, waitLimit, 10*time.Millisecond,
		"the watchdog waits on procs' pipe")

	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	require.NoError(t, err)
	self, err := os.Readlink("/proc/self/exe")
	require.NoError(t, err)
	assert.NotEqual(t, self, exe, "the idle watchdog is the procs binary")
	rss := procStatus(t, pid, "VmRSS")
	kb, err := strconv.Atoi(strings.TrimSuffix(rss, " kB"))
	require.NoError(t, err)
	assert.LessOrEqual(t, kb, 2048, "the idle watchdog (%s) is resident for %s", exe, rss)
}

// TestCleanCloseExecutesNoProcs: after a clean shutdown the watchdog exits
// as the small process it was; the procs binary runs in it only when procs
// died (its pipe ended without "close").
func TestCleanCloseExecutesNoProcs(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "procs-ran")
	t.Setenv(watchdogTraceVar, trace)
	wd, err := startWatchdog(NewInstance())
	require.NoError(t, err)
	require.NoError(t, wd.close())
	require.NotNil(t, wd.cmd.ProcessState, "close waits for the watchdog to end")
	assert.Equal(t, 0, wd.cmd.ProcessState.ExitCode())
	assert.NoFileExists(t, trace, "the procs binary ran in the watchdog after a clean shutdown")

	died, err := startWatchdog(NewInstance())
	require.NoError(t, err)
	require.NoError(t, died.w.Close())
	_ = died.cmd.Wait()
	getSpawner().forget(died.cmd.Process.Pid)
	died.journal.close()
	assert.FileExists(t, trace, "the procs binary did not run in the watchdog of a procs that died")
}

// procStatus is the value of one field of /proc/PID/status.
func procStatus(t *testing.T, pid int, field string) string {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	require.NoError(t, err)
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return ""
}
