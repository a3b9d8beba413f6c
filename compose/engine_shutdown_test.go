package compose

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// Requests that arrive while procs stops get ErrShuttingDown, the one the
// API and its clients test for, whichever package decided it.
func TestRequestsDuringShutdownSayShuttingDown(t *testing.T) {
	te := startEngine(t, `
procs:
  slow:
    command: [sh, -c, "trap '' TERM; echo up; while :; do sleep 1; done"]
    readyPatterns: [up]
    shutdown: {timeout: 30s}
`, Options{NoWatchdog: true})
	te.waitState("slow", rules.StateReady)
	require.NoError(t, te.Down())
	te.waitState("slow", rules.StateStopping)
	_, err := te.Restart("slow")
	assert.True(t, errors.Is(err, ErrShuttingDown), "restart: %v", err)
	_, err = te.Start("slow")
	assert.True(t, errors.Is(err, ErrShuttingDown), "start: %v", err)
	_, err = te.RestartMany(nil, false)
	assert.True(t, errors.Is(err, ErrShuttingDown), "restart many: %v", err)
	require.NoError(t, te.Down()) // a second down kills it
	te.waitOutcome()
}
