package lifecycle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// A stop of a task that completed (procs stop with no names stops every
// process) keeps it completed, answers the stop's wait for stopped with
// success, and keeps it from running again until it is started. A wait for
// stopped on a completed task nobody stopped still fails: it never stops.
func TestStopLeavesACompletedTaskCompleted(t *testing.T) {
	r := newRig(t, "procs:\n  migrate: {command: migrate, kind: task}\n", Options{})
	exits("migrate", exit0)(r)
	r.take()
	require.NoError(t, r.m.Wait(1, "migrate", []rules.State{rules.StateStopped}, 1))
	answers := answersOf(r.take())
	require.Len(t, answers, 1)
	assert.False(t, answers[0].Success, "a completed task nobody stopped is not stopped")

	run, err := r.m.Stop("migrate")
	require.NoError(t, err)
	assert.Equal(t, 1, run)
	require.NoError(t, r.m.Wait(2, "migrate", []rules.State{rules.StateStopped}, run))
	effects := r.take()
	assert.Empty(t, edges(effects), "no transition: it stays completed")
	answers = answersOf(effects)
	require.Len(t, answers, 1)
	assert.True(t, answers[0].Success, "the stop is done")
	assert.Equal(t, rules.StateCompleted, answers[0].Proc.State)
	ps := r.m.Proc("migrate")
	assert.Equal(t, rules.StateCompleted, ps.State)
	assert.Equal(t, rules.ReasonCompleted, ps.Reason)
	assert.False(t, ps.Wanted())

	_, err = r.m.Start("migrate")
	require.NoError(t, err)
	assert.Equal(t, []string{"migrate:completed>pending", "migrate:pending>starting"}, edges(r.take()))
	assert.Empty(t, r.m.Refused())
}
