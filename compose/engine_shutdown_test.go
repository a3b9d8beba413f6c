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

// TestARequestTakenIsAnswered: once the engine has taken a request, the
// caller gets the request's own answer, even when the engine has ended by
// the time the caller looks (a Down that leaves nothing to stop ends Run
// at once). do used to pick at random between the two, so Down answered
// "procs is shutting down" to the caller whose Down it had just done.
// Here the request itself marks the engine ended, which is the order the
// caller saw when it looked late.
func TestARequestTakenIsAnswered(t *testing.T) {
	for round := range 50 {
		e := &Engine{requests: make(chan func()), stopped: make(chan struct{})}
		go func() {
			req := <-e.requests
			req()
		}()
		ran := false
		err := e.do(func() {
			ran = true
			close(e.stopped)
		})
		require.NoError(t, err, "round %d", round)
		assert.True(t, ran)
	}
}
