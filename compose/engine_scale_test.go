package compose

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// scaleBase has a worker whose third instance never becomes ready, and an
// api that waits for every instance of worker.
const scaleBase = `
procs:
  worker:
    command: if [ "$PROCS_REPLICA" = 3 ]; then echo stuck; else echo up; fi; exec sleep 60
    readyPatterns: ['^up$']
    replicas: 3
  api:
    command: echo api up; exec sleep 60
    readyPatterns: [up]
    dependsOn: [worker]
`

var readyTarget = []rules.State{rules.StateReady}

// TestScaleDownReleasesADependentWaitingForARemovedInstance: api waits for
// worker-3, which never becomes ready; scaled to 2, worker-3 stops and api,
// which now depends on worker-1 and worker-2 only, starts.
func TestScaleDownReleasesADependentWaitingForARemovedInstance(t *testing.T) {
	te := startEngine(t, scaleBase, Options{})
	te.waitTargets([]WaitTarget{{Name: "worker-1", Targets: readyTarget, Run: 1}, {Name: "worker-2", Targets: readyTarget, Run: 1}})
	st, err := te.StatusOf("api")
	require.NoError(t, err)
	assert.Contains(t, []rules.State{rules.StatePending, rules.StateBlocked}, st.State)

	rec, err := te.Scale(map[string]int{"worker": 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"worker-3"}, rec.Stopped)
	te.waitTargets([]WaitTarget{{Name: "api", Targets: readyTarget, Run: 1}})
	assert.Equal(t, map[string]int{"worker-1": 1, "worker-2": 1, "api": 1}, te.runsOf())
}

// TestScaleHoldsOverAReload: procs scale's count outlives a reload of the
// file, which still says replicas: 3, and a process removed from the file
// is no longer scaled.
func TestScaleHoldsOverAReload(t *testing.T) {
	text := `
procs:
  worker: {command: "echo up; exec sleep 60", readyPatterns: [up], replicas: 1}
  other: {command: "echo up; exec sleep 60", readyPatterns: [up]}
`
	te := startEngine(t, text, Options{})
	file := filepath.Join(te.dir, "procs.yaml")
	te.opts.Load = func() (*config.Config, error) {
		return config.Load(config.LoadOptions{File: file, Environ: os.Environ()})
	}
	te.waitState("worker-1", rules.StateReady)
	rec, err := te.Scale(map[string]int{"worker": 2, "other": 2})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"worker-2", "other-1", "other-2"}, rec.Started)
	assert.Equal(t, []string{"other"}, rec.Stopped)
	te.waitTargets(rec.Waits)

	rec, err = te.Reload(nil, nil, nil)
	require.NoError(t, err)
	assert.True(t, rec.Diff.Empty(), "the reload keeps the scaled counts: %+v", rec.Diff)

	te.reload(`
procs:
  worker: {command: "echo up; exec sleep 60", readyPatterns: [up], replicas: 1}
`)
	rec, err = te.Reload(nil, map[string]int{"worker": 3}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"worker-3"}, rec.Started)
	assert.ElementsMatch(t, []string{"other-1", "other-2"}, rec.Stopped)
	assert.Equal(t, map[string]int{"worker": 3}, te.scaleOverrides())
}

// A task is not scaled while procs runs: its new instances would run it
// again, at once, beside each other (a migration, twice). The refusal
// leaves everything as it was.
func TestScaleRefusesATask(t *testing.T) {
	te := startEngine(t, `
procs:
  migrate: {command: echo migrated, kind: task}
  api: {command: "echo up; exec sleep 60", readyPatterns: [up], dependsOn: {migrate: completed}}
`, Options{})
	te.waitTargets([]WaitTarget{{Name: "api", Targets: readyTarget, Run: 1}})
	_, err := te.Scale(map[string]int{"migrate": 2})
	var refused *config.ScaleError
	require.ErrorAs(t, err, &refused)
	assert.Equal(t, "scale migrate=2: migrate is a task: its instances would run it again, at once, beside each other; "+
		"procs restart migrate runs it again, and replicas: in procs.yaml runs a task in instances from the start", err.Error())
	assert.Equal(t, map[string]int{"migrate": 1, "api": 1}, te.runsOf())
	st, err := te.StatusOf("migrate")
	require.NoError(t, err)
	assert.Equal(t, rules.StateCompleted, st.State)
}
