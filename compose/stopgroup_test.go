package compose

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// TestStopWaitsForTheWholeGroup: with a leader that
// exits at once on SIGTERM (runuser, a wrapper shell) while the server it
// started takes a moment to shut down cleanly, stop returns only once the
// server is done, not by killing it as soon as the leader is gone.
func TestStopWaitsForTheWholeGroup(t *testing.T) {
	for _, cgroups := range []string{"", "off"} {
		t.Run("cgroups="+cgroups, func(t *testing.T) {
			t.Setenv(contain.NoCgroupsVar, cgroups)
			marker := filepath.Join(t.TempDir(), "clean")
			te := startEngine(t, `
procs:
  db:
    command: [sh, -c, 'MARK="$0" sh -c "trap \"sleep 1; echo clean > \$MARK; exit 0\" TERM; echo up; while :; do sleep 0.05; done" & exec sleep 1000', `+marker+`]
    readyPatterns: ['^up$']
    shutdown: {signal: SIGTERM, timeout: 10s}
`, Options{NoWatchdog: true})
			te.waitState("db", rules.StateReady)
			_, err := te.Stop("db")
			require.NoError(t, err)
			te.waitState("db", rules.StateStopped)
			data, err := os.ReadFile(marker)
			require.NoError(t, err, "the server was killed before it finished shutting down")
			assert.Equal(t, "clean\n", string(data))
		})
	}
}
