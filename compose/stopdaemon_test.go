package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// TestStopSignalsADaemonThatLeftTheGroup: a run whose command left a
// daemon in a session of its own (setsid) gets the stop signal to it too,
// not only to its process group: the daemon exits on SIGTERM, and the stop
// does not wait out the shutdown timeout to SIGKILL it (issue 28, item 4).
// The main process either exits on the signal (the daemon is then found in
// the run's populated cgroup, or by its marker), or waits for the daemon,
// as a wrapper does (where the run has a cgroup, the look outside the group
// that a quick exit makes needless is still made, a moment later).
func TestStopSignalsADaemonThatLeftTheGroup(t *testing.T) {
	daemon := `MARK="$0" setsid sh -c "trap \"echo term > \$MARK; exit 0\" TERM; echo up; while :; do sleep 0.05; done" &`
	mains := map[string]string{
		"main exits":            daemon + ` exec sleep 1000`,
		"main waits for daemon": `trap "echo wrapper got TERM" TERM; ` + daemon + ` until wait $!; do :; done`,
	}
	for name, command := range mains {
		for _, cgroups := range []string{"", "off"} {
			t.Run(name+"/cgroups="+cgroups, func(t *testing.T) {
				t.Setenv(contain.NoCgroupsVar, cgroups)
				marker := filepath.Join(t.TempDir(), "term")
				te := startEngine(t, fmt.Sprintf(`
procs:
  app:
    command: [sh, -c, %q, %q]
    readyPatterns: ['^up$']
    shutdown: {signal: SIGTERM, timeout: 10s}
`, command, marker), Options{NoWatchdog: true})
				te.waitState("app", rules.StateReady)
				began := time.Now()
				_, err := te.Stop("app")
				require.NoError(t, err)
				ev := te.waitState("app", rules.StateStopped)
				took := time.Since(began)
				data, err := os.ReadFile(marker)
				require.NoError(t, err, "the daemon never got SIGTERM")
				assert.Equal(t, "term\n", string(data))
				assert.NotContains(t, ev.Message, "SIGKILL")
				// Far below the 10 s timeout that a daemon left to SIGKILL costs.
				assert.Less(t, took, 5*time.Second)
			})
		}
	}
}

// TestStopSaysWhatSIGKILLEnded: a stop whose signal ended the main process
// but not a child that ignores it says that the rest was killed after the
// shutdown timeout, not only "killed by SIGTERM".
func TestStopSaysWhatSIGKILLEnded(t *testing.T) {
	te := startEngine(t, `
procs:
  app:
    command: [sh, -c, 'sh -c "trap \"\" TERM; echo up; while :; do sleep 0.05; done" & wait']
    readyPatterns: ['^up$']
    shutdown: {signal: SIGTERM, timeout: 1s}
`, Options{NoWatchdog: true})
	te.waitState("app", rules.StateReady)
	_, err := te.Stop("app")
	require.NoError(t, err)
	ev := te.waitState("app", rules.StateStopped)
	assert.Contains(t, ev.Message, "what was left of the run 1s after SIGTERM was killed (SIGKILL)")
}
