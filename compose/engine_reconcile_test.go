package compose

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

const reconcileBase = `
procs:
  db: {command: "echo db up; sleep 60", readyPatterns: [up]}
  api:
    command: "echo api up; sleep 60"
    readyPatterns: [up]
    dependsOn: {db: {condition: ready, restart: true}}
  cache: {command: "echo cache up; sleep 60", readyPatterns: [up]}
  old: {command: "echo old up; sleep 60", readyPatterns: [up]}
`

// reload writes text as the project's procs.yaml and loads it.
func (te *testEngine) reload(text string) *config.Config {
	te.t.Helper()
	file := filepath.Join(te.dir, "procs.yaml")
	require.NoError(te.t, os.WriteFile(file, []byte(text), 0o644))
	cfg, err := config.Load(config.LoadOptions{File: file, Environ: os.Environ()})
	require.NoError(te.t, err)
	return cfg
}

func (te *testEngine) runsOf() map[string]int {
	te.t.Helper()
	list, err := te.Status()
	require.NoError(te.t, err)
	runs := map[string]int{}
	for _, st := range list {
		runs[st.Name] = st.Run
	}
	return runs
}

func (te *testEngine) waitTargets(targets []WaitTarget) {
	te.t.Helper()
	for _, w := range targets {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		res, err := te.Wait(ctx, w.Name, w.Targets, w.Run)
		cancel()
		require.NoError(te.t, err)
		require.True(te.t, res.Success, "%s: %s", w.Name, res.Message)
	}
}

// TestApplyRestartsOnlyWhatChanged: db's edit restarts db and api (restart:
// true), not cache; a new process starts; a removed one stops and goes.
func TestApplyRestartsOnlyWhatChanged(t *testing.T) {
	te := startEngine(t, reconcileBase, Options{NoWatchdog: true})
	te.waitTargets([]WaitTarget{
		{Name: "db", Run: 1, Targets: []rules.State{rules.StateReady}}, {Name: "api", Run: 1, Targets: []rules.State{rules.StateReady}},
		{Name: "cache", Run: 1, Targets: []rules.State{rules.StateReady}}, {Name: "old", Run: 1, Targets: []rules.State{rules.StateReady}},
	})
	next := strings.Replace(reconcileBase, "echo db up; sleep 60", "echo db up again; sleep 61", 1)
	next = strings.Replace(next, `  old: {command: "echo old up; sleep 60", readyPatterns: [up]}`, `  mail: {command: "echo mail up; sleep 60", readyPatterns: [up], dependsOn: [db]}`, 1)
	rec, err := te.Apply(te.reload(next), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"db"}, rec.Diff.Changed)
	assert.Equal(t, []string{"db", "api"}, rec.Restarted)
	assert.Equal(t, []string{"mail"}, rec.Started)
	assert.Equal(t, []string{"old"}, rec.Stopped)
	te.waitTargets(rec.Waits)

	runs := te.runsOf()
	assert.Equal(t, map[string]int{"db": 2, "api": 2, "cache": 1, "mail": 1}, runs)
	lines, err := te.Logs("db", 0)
	require.NoError(t, err)
	assert.Equal(t, "db up again", lines[len(lines)-1].Text)
	_, err = te.StatusOf("old")
	assert.ErrorIs(t, err, ErrUnknownProcess)
	assert.Nil(t, te.Config().Procs["old"], "the published config is the new one")
}

// TestApplyOfTheSameConfigDoesNothing: nothing restarts.
func TestApplyOfTheSameConfigDoesNothing(t *testing.T) {
	te := startEngine(t, reconcileBase, Options{NoWatchdog: true})
	te.waitState("api", rules.StateReady)
	rec, err := te.Apply(te.reload(reconcileBase), nil)
	require.NoError(t, err)
	assert.True(t, rec.Diff.Empty())
	assert.Empty(t, rec.Restarted)
	assert.Empty(t, rec.Waits)
}

// TestApplyRestartsAFailedProcessWithItsFix: the edit that fixes a failed
// process brings it back.
func TestApplyRestartsAFailedProcessWithItsFix(t *testing.T) {
	broken := "procs:\n  web: {command: \"echo boom; exit 1\", readyPatterns: [up]}\n"
	te := startEngine(t, broken, Options{NoWatchdog: true, StayUp: true})
	te.waitState("web", rules.StateFailed)
	rec, err := te.Apply(te.reload("procs:\n  web: {command: \"echo up; sleep 60\", readyPatterns: [up]}\n"), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"web"}, rec.Restarted)
	te.waitTargets(rec.Waits)
}

// TestRestartManyWaitsForRestartDependents: restarting db lists api, which
// follows it; with noDeps api keeps its run.
func TestRestartManyWaitsForRestartDependents(t *testing.T) {
	te := startEngine(t, reconcileBase, Options{NoWatchdog: true})
	te.waitTargets([]WaitTarget{{Name: "api", Run: 1, Targets: []rules.State{rules.StateReady}}})
	plan, err := te.RestartMany([]string{"d*"}, false)
	require.NoError(t, err)
	require.Len(t, plan.Waits, 2)
	assert.Equal(t, WaitTarget{Name: "api", Run: 2, Targets: []rules.State{rules.StateReady}, After: "db"}, plan.Waits[1])
	te.waitTargets(plan.Waits)

	plan, err = te.RestartMany([]string{"db"}, true)
	require.NoError(t, err)
	require.Len(t, plan.Waits, 1)
	te.waitTargets(plan.Waits)
	assert.Equal(t, 2, te.runsOf()["api"])

	_, err = te.RestartMany([]string{"nothing-*"}, false)
	assert.ErrorIs(t, err, ErrUnknownProcess)
}

// TestRestartManyTakesTheEditedDefinition: restart notices an edit of the
// process on disk, says so and runs the new command.
func TestRestartManyTakesTheEditedDefinition(t *testing.T) {
	cfg := parseConfig(t, reconcileBase)
	load := func() (*config.Config, error) {
		return config.Load(config.LoadOptions{File: cfg.File, Environ: os.Environ()})
	}
	te := startEngine(t, reconcileBase, Options{NoWatchdog: true, Load: load})
	te.waitState("cache", rules.StateReady)
	cfg.File = filepath.Join(te.dir, "procs.yaml")
	te.reload(strings.Replace(reconcileBase, "echo cache up; sleep 60", "echo cache up v2; sleep 60", 1))
	plan, err := te.RestartMany([]string{"cache"}, false)
	require.NoError(t, err)
	assert.Equal(t, []string{"cache: definition changed in procs.yaml; using it"}, plan.Notes)
	te.waitTargets(plan.Waits)
	lines, err := te.Logs("cache", 0)
	require.NoError(t, err)
	assert.Equal(t, "cache up v2", lines[len(lines)-1].Text)
}

// TestStayUpKeepsRunningAfterTheOnlyProcessFails: a procs that stays up
// can restart its one process after it failed.
func TestStayUpKeepsRunningAfterTheOnlyProcessFails(t *testing.T) {
	te := startEngine(t, "procs:\n  web: {command: \"echo boom; exit 1\"}\n", Options{NoWatchdog: true, StayUp: true})
	te.waitState("web", rules.StateFailed)
	run, err := te.Restart("web")
	require.NoError(t, err, "the engine is still up")
	assert.Equal(t, 2, run)
	te.waitState("web", rules.StateFailed)
	require.NoError(t, te.Down())
	assert.Equal(t, "down", te.waitOutcome().Ended)
}

// TestExitOnFailureEndsAtTheFirstFailure.
func TestExitOnFailureEndsAtTheFirstFailure(t *testing.T) {
	te := startEngine(t, "procs:\n  web: {command: \"echo boom; exit 1\"}\n  db: {command: \"sleep 60\"}\n", Options{NoWatchdog: true, StayUp: true, ExitOnFailure: true})
	out := te.waitOutcome()
	assert.Equal(t, []string{"web"}, out.Failed)
	assert.Contains(t, out.Ended, "exit on failure")
}

// TestStayUpOutlivesAStoppedService: a service stopped by request may be
// started again, so a procs that stays up does not end when only completed
// tasks and stopped services are left; it ends once only completed tasks
// (and processes never started) are.
func TestStayUpOutlivesAStoppedService(t *testing.T) {
	te := startEngine(t, `
procs:
  migrate: {kind: task, command: "echo migrated"}
  web: {command: "echo up; sleep 60", readyPatterns: [up], dependsOn: {migrate: completed}}
  extra: {command: "sleep 60", disabled: true}
`, Options{NoWatchdog: true, StayUp: true})
	te.waitTargets([]WaitTarget{{Name: "web", Run: 1, Targets: []rules.State{rules.StateReady}}})
	_, err := te.Stop("web")
	require.NoError(t, err)
	te.waitState("web", rules.StateStopped)
	run, err := te.Start("web")
	require.NoError(t, err, "procs is still up to start web again")
	te.waitTargets([]WaitTarget{{Name: "web", Run: run, Targets: []rules.State{rules.StateReady}}})
}

// TestStayUpEndsWhenEveryTaskCompleted.
func TestStayUpEndsWhenEveryTaskCompleted(t *testing.T) {
	te := startEngine(t, "procs:\n  a: {kind: task, command: \"true\"}\n  b: {kind: task, command: \"true\", dependsOn: {a: completed}}\n", Options{NoWatchdog: true, StayUp: true})
	out := te.waitOutcome()
	assert.Empty(t, out.Failed)
	assert.Empty(t, out.Ended)
}

// TestApplyLeavesAStoppedProcessStoppedAndStartsAnEnabledOne: an edit of a
// process stopped on request updates it without starting it; a process no
// longer disabled starts (it never ran, so it is started, not restarted).
func TestApplyLeavesAStoppedProcessStoppedAndStartsAnEnabledOne(t *testing.T) {
	base := "procs:\n  web: {command: \"echo up; sleep 60\", readyPatterns: [up]}\n  extra: {command: \"echo up; sleep 60\", readyPatterns: [up], disabled: true}\n"
	te := startEngine(t, base, Options{NoWatchdog: true, StayUp: true})
	te.waitTargets([]WaitTarget{{Name: "web", Run: 1, Targets: []rules.State{rules.StateReady}}})
	_, err := te.Stop("web")
	require.NoError(t, err)
	te.waitTargets([]WaitTarget{{Name: "web", Run: 1, Targets: []rules.State{rules.StateStopped}}})
	next := strings.Replace(base, "echo up; sleep 60\", readyPatterns: [up]}\n  extra", "echo up 2; sleep 60\", readyPatterns: [up]}\n  extra", 1)
	next = strings.Replace(next, "disabled: true", "disabled: false", 1)
	rec, err := te.Apply(te.reload(next), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"web"}, rec.Updated)
	assert.Equal(t, []string{"extra"}, rec.Started)
	assert.Empty(t, rec.Restarted)
	te.waitTargets(rec.Waits)
	st, err := te.StatusOf("web")
	require.NoError(t, err)
	assert.Equal(t, rules.StateStopped, st.State)
}

// TestApplyRestartsWhatAnEditedEnvFileChanges: the config is the same, but
// db's env file now holds another value: db restarts, api follows it
// (restart: true), cache, which sets the variable itself, does not; an
// edit that gives db the values it already has changes nothing.
func TestApplyRestartsWhatAnEditedEnvFileChanges(t *testing.T) {
	envFile := filepath.Join(t.TempDir(), "shared.env")
	require.NoError(t, os.WriteFile(envFile, []byte("MODE=one\n"), 0o644))
	text := `
envFile: ` + envFile + `
procs:
  db: {command: "echo db $$MODE; echo up; sleep 60", readyPatterns: [up]}
  api:
    command: "echo api up; sleep 60"
    readyPatterns: [up]
    env: {MODE: api}
    dependsOn: {db: {condition: ready, restart: true}}
  cache: {command: "echo cache up; sleep 60", readyPatterns: [up], env: {MODE: cache}}
`
	te := startEngine(t, text, Options{NoWatchdog: true})
	ready := []rules.State{rules.StateReady}
	te.waitTargets([]WaitTarget{{Name: "db", Run: 1, Targets: ready}, {Name: "api", Run: 1, Targets: ready}, {Name: "cache", Run: 1, Targets: ready}})

	require.NoError(t, os.WriteFile(envFile, []byte("# same values\nMODE=one\n"), 0o644))
	rec, err := te.Apply(te.reload(text), nil)
	require.NoError(t, err)
	assert.Empty(t, rec.Restarted, "the same values: nothing to restart")

	require.NoError(t, os.WriteFile(envFile, []byte("MODE=two\n"), 0o644))
	rec, err = te.Apply(te.reload(text), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"db"}, rec.Diff.EnvChanged)
	assert.Equal(t, []string{"db", "api"}, rec.Restarted)
	te.waitTargets(rec.Waits)
	assert.Equal(t, map[string]int{"db": 2, "api": 2, "cache": 1}, te.runsOf())
	lines, err := te.Logs("db", 0)
	require.NoError(t, err)
	assert.Equal(t, "db two", lines[len(lines)-2].Text)
}
