package compose

import (
	"context"
	"errors"
	"testing"
	"time"

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

// endedFirstContext is a context whose deadline the caller sees only once
// the engine has ended: Done waits for that before it answers. A Wait
// looking at it finds both its deadline passed and the engine's last
// answer given, which is the order a caller whose deadline meets the
// engine's end may see.
type endedFirstContext struct {
	context.Context
	engine *Engine
	done   chan struct{}
}

func (c endedFirstContext) Done() <-chan struct{} {
	<-c.engine.stopped
	return c.done
}

// TestAWaitGivenUpAsTheEngineEndsKeepsItsAnswer: the engine answers every
// wait as it ends, with the process as it is then (stopped). A
// wait whose deadline passed in the meantime must return that answer, not
// "procs is shutting down": asking the ended engine to give the wait up
// fails, but the answer is already there. Wait picks at random between its
// deadline and the answer when both are there, so the rounds make the
// deadline's branch all but certain to be taken.
func TestAWaitGivenUpAsTheEngineEndsKeepsItsAnswer(t *testing.T) {
	for round := range 12 {
		te := startEngine(t, "procs:\n  web: {command: \"sleep 60\", readyPatterns: [never]}\n", Options{NoWatchdog: true})
		te.waitState("web", rules.StateStarting)
		ctx := endedFirstContext{Context: context.Background(), engine: te.Engine, done: make(chan struct{})}
		close(ctx.done)
		answered := make(chan error, 1)
		var res rules.Result
		go func() {
			var err error
			res, err = te.Wait(ctx, "web", []rules.State{rules.StateReady}, 1)
			answered <- err
		}()
		require.NoError(t, te.Down())
		te.waitOutcome()
		select {
		case err := <-answered:
			require.NoError(t, err, "round %d: the engine's last answer was there", round)
			assert.Equal(t, "web", res.Name)
			assert.Equal(t, rules.StateStopped, res.State, "round %d: %s", round, res.Message)
		case <-time.After(waitLimit):
			t.Fatalf("round %d: Wait did not return", round)
		}
	}
}

// A process still running when its shutdown timeout ends is killed, and
// its verdict says so: that it outlived its stop signal by the timeout (a
// server whose SIGTERM handler hangs, or ignores it), not only that
// SIGKILL ended it, which alone reads like a kill someone asked for.
func TestAStopPastItsTimeoutSaysSo(t *testing.T) {
	te := startEngine(t, `
procs:
  stubborn:
    command: [sh, -c, "trap '' TERM; echo up; while :; do sleep 0.1; done"]
    readyPatterns: [up]
    shutdown: {timeout: 300ms}
  polite:
    command: [sh, -c, "echo up; exec sleep 100"]
    readyPatterns: [up]
    dependsOn: [stubborn]
`, Options{NoWatchdog: true})
	te.waitState("polite", rules.StateReady) // after stubborn's

	_, err := te.Stop("polite")
	require.NoError(t, err)
	ev := te.waitState("polite", rules.StateStopped)
	assert.Equal(t, "stopped on request (killed by SIGTERM)", ev.Message, "a stop within its timeout says nothing of it")

	_, err = te.Stop("stubborn")
	require.NoError(t, err)
	ev = te.waitState("stubborn", rules.StateStopped)
	assert.Equal(t, "stopped on request (killed by SIGKILL); still running 300ms after SIGTERM (its shutdown.timeout)", ev.Message)
}
