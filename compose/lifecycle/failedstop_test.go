package lifecycle

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// stopsOf lists the StopRun effects among effects.
func stopsOf(effects []Effect) []StopRun { return effectsOf[StopRun](effects) }

// TestFailuresThatStopWalksTheTable: for each reason of failuresThatStop,
// with or without a restart policy, a run failed with it while it goes is
// stopped gracefully; once it has ended its failure stands (same state,
// reason and message, saying procs stopped it), and only the policy brings
// it back.
func TestFailuresThatStopWalksTheTable(t *testing.T) {
	require.Contains(t, failuresThatStop, rules.ReasonError)
	require.NotContains(t, failuresThatStop, rules.ReasonTimeout, "a run past its readyTimeout may still come up")
	for reason := range failuresThatStop {
		for _, policy := range []string{"no", "on-failure"} {
			t.Run(fmt.Sprintf("%s/%s", reason, policy), func(t *testing.T) {
				r := newRig(t, fmt.Sprintf("procs:\n  w: {command: w, restart: {policy: %s, backoff: 1s..1s}}\n", policy), Options{})
				r.m.Started("w", 1, 100)
				r.take()
				v := rules.Verdict{State: rules.StateFailed, Reason: reason, Message: "what failed it"}
				r.m.Verdict("w", 1, v)
				effects := r.take()
				assert.Equal(t, []string{"w:starting>failed"}, edges(effects))
				assert.Equal(t, []StopRun{{Name: "w", Graceful: true}}, stopsOf(effects))

				r.m.Exited("w", 1, stopExit)
				want := []string{"w:failed>failed"}
				if policy != "no" {
					want = append(want, "w:failed>backoff")
				}
				assert.Equal(t, want, edges(r.take()))
				ps := r.m.Proc("w")
				assert.False(t, ps.Running())
				if policy == "no" {
					assert.Equal(t, rules.StateFailed, ps.State)
					assert.Equal(t, reason, ps.Reason)
					assert.Equal(t, "what failed it; procs stopped it (SIGTERM)", ps.Message)
					assert.False(t, ps.InBackoff())
				}
				assert.Empty(t, r.m.Refused())
			})
		}
	}
}

// A failed verdict outside the table (a readiness timeout), one the
// program recovers from by itself, or one on an interactive process's
// screen leaves the run going when no restart policy asks for a new one.
func TestFailuresThatDoNotStop(t *testing.T) {
	verdicts := []rules.Verdict{
		{State: rules.StateFailed, Reason: rules.ReasonTimeout, Message: "no line matched /up/ after 2s"},
		{State: rules.StateFailed, Reason: rules.ReasonError, Recoverable: true, Message: "rate limited, retrying"},
		{State: rules.StateFailed, Reason: rules.ReasonRecoverable, Recoverable: true, Message: "retrying"},
	}
	for _, v := range verdicts {
		_, listed := failuresThatStop[v.Reason]
		require.True(t, v.Recoverable || !listed, "%s is in the table", v.Reason)
		r := newRig(t, "procs:\n  w: {command: w}\n", Options{})
		r.m.Started("w", 1, 100)
		r.take()
		r.m.Verdict("w", 1, v)
		assert.Empty(t, stopsOf(r.take()), "%+v", v)
		assert.True(t, r.m.Proc("w").Running())
	}
	for reason := range failuresThatStop {
		r := newInteractiveRig(t)
		r.m.Verdict("agent", 1, rules.Verdict{State: rules.StateFailed, Reason: reason, Message: "on its screen"})
		assert.Empty(t, stopsOf(r.take()), "an interactive process failed by %s", reason)
		assert.True(t, r.m.Proc("agent").Running())
	}
}

// A run failed by its readyTimeout that comes up later is ready then, and
// the dependents it blocked start.
func TestALateReadyAfterATimeoutUnblocks(t *testing.T) {
	r := newRig(t, "procs:\n  slow: {command: slow}\n  dep: {command: dep, dependsOn: [slow]}\n", Options{})
	r.m.Started("slow", 1, 100)
	r.take()
	r.m.Verdict("slow", 1, rules.Verdict{State: rules.StateFailed, Reason: rules.ReasonTimeout, Message: "no line matched /up/ after 2s"})
	assert.Equal(t, []string{"slow:starting>failed", "dep:pending>blocked"}, edges(r.take()))
	r.m.Verdict("slow", 1, rules.Verdict{State: rules.StateReady, Reason: rules.ReasonReady, Message: "matched /up/"})
	assert.Equal(t, []string{"slow:failed>ready", "dep:blocked>starting"}, edges(r.take()))
	assert.Empty(t, r.m.Refused())
}
