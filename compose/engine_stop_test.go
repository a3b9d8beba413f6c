package compose

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// procs stop with no names stops every process, dependents first, each
// with a Stop and a wait for stopped. A task that completed has no run to
// stop: it stays completed (not relabelled "stopped: stop requested"), and
// the stop's wait ends with success, the state saying what it is.
func TestStopEverythingLeavesACompletedTaskCompleted(t *testing.T) {
	te := startEngine(t, `
procs:
  migrate: {kind: task, command: "echo migrated"}
  api: {command: "echo listening; exec sleep 60", readyPatterns: [listening], dependsOn: {migrate: completed}}
`, Options{NoWatchdog: true, StayUp: true})
	te.waitState("api", rules.StateReady)
	before, err := te.StatusOf("migrate")
	require.NoError(t, err)
	require.Equal(t, rules.StateCompleted, before.State)

	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	want := map[string]rules.State{"api": rules.StateStopped, "migrate": rules.StateCompleted}
	for _, name := range []string{"api", "migrate"} { // dependents first, as procs stop does
		run, err := te.Stop(name)
		require.NoError(t, err)
		res, err := te.Wait(ctx, name, []rules.State{rules.StateStopped}, run)
		require.NoError(t, err)
		assert.True(t, res.Success, "the stop of %s: %+v", name, res)
		assert.Equal(t, want[name], res.State, "the stop of %s", name)
	}
	after, err := te.StatusOf("migrate")
	require.NoError(t, err)
	assert.Equal(t, rules.StateCompleted, after.State)
	assert.Equal(t, before.Reason, after.Reason)
	assert.Equal(t, before.Message, after.Message)
	assert.Equal(t, 1, after.Run)

	// It is not running, and not brought back: procs start runs it again.
	run, err := te.Start("migrate")
	require.NoError(t, err)
	res, err := te.Wait(ctx, "migrate", []rules.State{rules.StateCompleted}, run)
	require.NoError(t, err)
	assert.True(t, res.Success, "%+v", res)
	assert.Equal(t, 2, res.Run)
}
