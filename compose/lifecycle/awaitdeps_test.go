package lifecycle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// reconcileTo applies the config text after to the rig's machine, whose
// config was before, with the new definitions of what changed or was
// added, as the engine does on procs reload.
func reconcileTo(t *testing.T, r *rig, before, after string) Reconciled {
	t.Helper()
	next := parse(t, after)
	order, err := next.StartOrder()
	require.NoError(t, err)
	diff := config.DiffConfigs(parse(t, before), next)
	defs := map[string]Definition{}
	for _, name := range append(diff.Changed, diff.Added...) {
		defs[name] = Definition{Proc: next.Procs[name]}
	}
	rec, err := r.m.Reconcile(next, order, diff, defs, Up{})
	require.NoError(t, err)
	return rec
}

// A reload that gives a running process a new dependency restarts it once
// that dependency is ready, as docker compose up recreates a service once
// its dependencies are healthy: the run serving now is not stopped before.
// When the new dependency fails instead, the run serves on, the wait for
// the new run ends saying why, and the restart goes on once the
// dependency is fixed. A reload used to stop
// the serving API at once, and leave it blocked on the failed cache.
func TestARestartWaitsForItsNewDependencies(t *testing.T) {
	before := "procs:\n  api: {command: a}\n"
	after := "procs:\n  cache: {command: c}\n  api: {command: a, dependsOn: [cache]}\n"

	t.Run("the dependency fails: the run serves on", func(t *testing.T) {
		r := newRig(t, before, Options{})
		becomesReady("api")(r)
		r.take()
		rec := reconcileTo(t, r, before, after)
		assert.Equal(t, []string{"api"}, rec.Restarted)
		require.NoError(t, r.m.Wait(7, "api", []rules.State{rules.StateReady}, rec.Waits[len(rec.Waits)-1].Run))
		assert.Empty(t, effectsOf[StopRun](r.take()), "api's run serves until cache is ready")
		assert.Equal(t, rules.StateReady, r.m.Proc("api").State)

		exits("cache", crash)(r)
		effects := r.take()
		assert.Empty(t, effectsOf[StopRun](effects), "the restart is held: api serves on")
		assert.Equal(t, rules.StateReady, r.m.Proc("api").State)
		assert.Equal(t, 1, r.m.Proc("api").Run)
		answers := effectsOf[Answer](effects)
		require.Len(t, answers, 1, "the wait for api's new run ends")
		assert.False(t, answers[0].Success)
		assert.Equal(t, "not restarted: cache failed: exit code 1, so its new run could not start; it runs on as it is, and restarts once its dependencies are ready", answers[0].Note)

		// A wait for that run that comes after the drop (a reload waits
		// for its targets in turn) ends too, with the same note.
		require.NoError(t, r.m.Wait(8, "api", []rules.State{rules.StateReady}, 2))
		answers = effectsOf[Answer](r.take())
		require.Len(t, answers, 1, "a wait registered late ends at once")
		assert.Equal(t, answers[0].Note, "not restarted: cache failed: exit code 1, so its new run could not start; it runs on as it is, and restarts once its dependencies are ready")

		// Fixed and started, cache is ready: the restart goes on, and api
		// runs its new definition.
		_, err := r.m.Start("cache")
		require.NoError(t, err)
		assert.Empty(t, effectsOf[StopRun](r.take()), "cache is not ready yet")
		becomesReady("cache")(r)
		stops := effectsOf[StopRun](r.take())
		require.Len(t, stops, 1)
		assert.Equal(t, "api", stops[0].Name)
		exits("api", stopExit)(r)
		assert.Equal(t, 2, r.m.Proc("api").Run)
	})

	t.Run("the dependency becomes ready: then the restart", func(t *testing.T) {
		r := newRig(t, before, Options{})
		becomesReady("api")(r)
		reconcileTo(t, r, before, after)
		assert.Empty(t, effectsOf[StopRun](r.take()))
		becomesReady("cache")(r)
		stops := effectsOf[StopRun](r.take())
		require.Len(t, stops, 1)
		assert.Equal(t, "api", stops[0].Name)
		exits("api", stopExit)(r)
		assert.Equal(t, 2, r.m.Proc("api").Run, "the new run starts: cache is ready")
		assert.Equal(t, rules.StateStarting, r.m.Proc("api").State)
	})

	t.Run("the run ends meanwhile: its restart waits as a start does", func(t *testing.T) {
		r := newRig(t, before, Options{})
		becomesReady("api")(r)
		reconcileTo(t, r, before, after)
		exits("api", crash)(r)
		assert.Equal(t, rules.StatePending, r.m.Proc("api").State, "its new run waits for cache")
		becomesReady("cache")(r)
		assert.Equal(t, 2, r.m.Proc("api").Run)
	})

	t.Run("a stop or a shutdown drops it", func(t *testing.T) {
		r := newRig(t, before, Options{})
		becomesReady("api")(r)
		reconcileTo(t, r, before, after)
		_, err := r.m.Stop("api")
		require.NoError(t, err)
		exits("api", stopExit)(r)
		becomesReady("cache")(r)
		assert.Equal(t, rules.StateStopped, r.m.Proc("api").State, "stopped on request, it stays stopped")
		assert.Equal(t, 1, r.m.Proc("api").Run)
	})
}

// Restarting a process with its dependency (procs restart db api) stops
// the dependent once the dependency is ready again, not before.
func TestARestartWithItsDependencyWaitsForIt(t *testing.T) {
	r := newRig(t, "procs:\n  db: {command: d}\n  api: {command: a, dependsOn: [db]}\n", Options{})
	becomesReady("db")(r)
	becomesReady("api")(r)
	r.take()
	_, err := r.m.Restart([]string{"db", "api"}, false)
	require.NoError(t, err)
	stops := effectsOf[StopRun](r.take())
	require.Len(t, stops, 1)
	assert.Equal(t, "db", stops[0].Name)
	exits("db", stopExit)(r)
	becomesReady("db")(r)
	stops = effectsOf[StopRun](r.take())
	require.Len(t, stops, 1)
	assert.Equal(t, "api", stops[0].Name)
}

// A wait for no particular run of a process in backoff (procs wait, MCP
// wait_for_ready) waits for the run its policy starts next: the failure
// that put it in backoff is the last run's, and the next may be fixed.
// A wait for a run (a restart's) still ends with that run's failure.
func TestAWaitOnABackoffWaitsForTheNextRun(t *testing.T) {
	r := newRig(t, "procs:\n  api: {command: a, restart: {policy: on-failure, backoff: 1s}}\n", Options{})
	exits("api", crash)(r)
	require.Equal(t, rules.StateBackoff, r.m.Proc("api").State)
	r.take()
	require.NoError(t, r.m.Wait(1, "api", []rules.State{rules.StateReady}, 0))
	require.NoError(t, r.m.Wait(2, "api", []rules.State{rules.StateReady}, 1))
	answers := effectsOf[Answer](r.take())
	require.Len(t, answers, 1, "the wait for run 1 ends: run 1 failed")
	assert.Equal(t, 2, answers[0].Waiter)

	r.m.BackoffFired("api", r.m.Proc("api").intent.backoffGen)
	assert.Equal(t, 2, r.m.Proc("api").Run)
	becomesReady("api")(r)
	answers = effectsOf[Answer](r.take())
	require.Len(t, answers, 1)
	assert.Equal(t, 1, answers[0].Waiter)
	assert.True(t, answers[0].Success)
}
