package compose

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// TestStaleBackoffTimerIsIgnored replays the race of a backoff timer whose
// callback was already queued when a restart request stopped it: the new
// run fails into a fresh backoff, then the stale callback runs. It must not
// clear the fresh timer nor start the next run early.
func TestStaleBackoffTimerIsIgnored(t *testing.T) {
	te := startEngine(t, `
procs:
  crash:
    command: [sh, -c, "exit 3"]
    restart: {policy: always, backoff: 1h..1h}
`, Options{NoWatchdog: true})
	te.waitState("crash", rules.StateBackoff)
	var stale int
	require.NoError(t, te.do(func() { stale = te.procs["crash"].backoffGen }))

	_, err := te.Restart("crash")
	require.NoError(t, err)
	te.waitState("crash", rules.StateStarting)
	te.waitState("crash", rules.StateBackoff)

	var state rules.State
	var armed bool
	var run int
	require.NoError(t, te.do(func() {
		ps := te.procs["crash"]
		te.backoffFired(ps, stale) // the callback queued before the restart
		state, armed, run = ps.state, ps.backoff != nil, ps.run
	}))
	assert.Equal(t, rules.StateBackoff, state, "the stale timer started the next run early")
	assert.True(t, armed, "the stale timer cleared the fresh one")
	assert.Equal(t, 2, run)
}
