package lifecycle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// A process removed by a reload may take its whole stop timeout (a server
// that ignores SIGTERM). Only what the same reload added waits for it, as
// it may be its replacement (a rename, the same port), and says so; a
// process that was there before restarts at once.
func TestARemovedProcessEndingHoldsOnlyWhatTheReloadAdded(t *testing.T) {
	before := "procs:\n  web: {command: web}\n  other: {command: other}\n  stub: {command: stub, port: 8771}\n"
	r := newRig(t, before, Options{})
	for _, name := range []string{"web", "other", "stub"} {
		becomesReady(name)(r)
	}
	r.take()
	next := parse(t, "procs:\n  web: {command: web}\n  other: {command: other}\n  api: {command: api, port: 8771}\n")
	order, _ := next.StartOrder()
	rec, err := r.m.Reconcile(next, order, config.DiffConfigs(parse(t, before), next),
		map[string]Definition{"api": {Proc: next.Procs["api"]}}, Up{})
	require.NoError(t, err)
	assert.Equal(t, []string{"api"}, rec.Started)
	assert.Empty(t, effectsOf[StartRun](r.take()), "api starts beside stub, whose run may hold its port")
	api := r.m.Proc("api")
	assert.Equal(t, rules.StatePending, api.State)
	assert.Equal(t, rules.ReasonWaiting, api.Reason)
	assert.Equal(t, "waiting for stub to stop (removed from procs.yaml)", api.Message)

	// other was there before the reload: its restart does not wait for stub.
	targets, err := r.m.Restart([]string{"other"}, false)
	require.NoError(t, err)
	assert.Equal(t, []Target{{Name: "other", Run: 2, States: []rules.State{rules.StateReady}}}, targets)
	exits("other", stopExit)(r)
	assert.Equal(t, []StartRun{{Name: "other", Run: 2}}, effectsOf[StartRun](r.take()), "other's restart waits for stub")
	// Nor does its start after a stop.
	_, err = r.m.Stop("web")
	require.NoError(t, err)
	exits("web", stopExit)(r)
	_, err = r.m.Start("web")
	require.NoError(t, err)
	assert.Equal(t, []StartRun{{Name: "web", Run: 2}}, effectsOf[StartRun](r.take()), "web's start waits for stub")

	// A start asked of api waits on, saying why.
	_, err = r.m.Start("api")
	require.NoError(t, err)
	assert.Empty(t, effectsOf[StartRun](r.take()))
	assert.Equal(t, "waiting for stub to stop (removed from procs.yaml)", api.Message)

	r.m.Exited("stub", 1, rules.Verdict{State: rules.StateStopped, Reason: rules.ReasonStopped, Message: "stopped on request (killed by SIGKILL)"})
	assert.Equal(t, []StartRun{{Name: "api", Run: 1}}, effectsOf[StartRun](r.take()))
	assert.Equal(t, rules.StateStarting, api.State)

	// Once it has run, api is a process like any other: a later removal
	// does not hold its restart.
	becomesReady("api")(r)
	r.take()
	final := parse(t, "procs:\n  api: {command: api, port: 8771}\n  other: {command: other}\n")
	order, _ = final.StartOrder()
	_, err = r.m.Reconcile(final, order, config.DiffConfigs(next, final), nil, Up{})
	require.NoError(t, err)
	require.Equal(t, rules.StateStopping, r.m.Proc("web").State)
	_, err = r.m.Restart([]string{"api"}, false)
	require.NoError(t, err)
	exits("api", stopExit)(r)
	assert.Equal(t, []StartRun{{Name: "api", Run: 2}}, effectsOf[StartRun](r.take()))
	assert.Empty(t, r.m.Refused())
}
