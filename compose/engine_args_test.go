package compose

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// argsProject has tasks with args, and a service that keeps procs running.
const argsProject = `
procs:
  keep:
    command: exec sleep 300
  echo:
    kind: task
    disabled: true
    command: printf 'arg=%s env=%s count=%s\n' {{args.msg}} "$MSG" {{args.count}}
    args:
      - {name: msg, default: hello}
      - {name: count, type: integer, default: 1}
  slow:
    kind: task
    disabled: true
    command: echo "label=$LABEL"; exec sleep 300
    args: [{name: label}]
  deploy:
    kind: task
    disabled: true
    command: echo deploying {{args.target}}
    args: [{name: target, required: true}]
`

// runEnded waits for run of a task to end and returns its result.
func (te *testEngine) runEnded(name string, run int) rules.Result {
	te.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	res, err := te.Wait(ctx, name, []rules.State{rules.StateCompleted, rules.StateFailed, rules.StateStopped}, run)
	require.NoError(te.t, err)
	require.Equal(te.t, run, res.Run)
	return res
}

// TestStartArgsGivesOneRunItsArguments: a run started with arguments gets
// them as variables and quoted words, an injection attempt arriving as
// text; the next run without arguments has the defaults again.
func TestStartArgsGivesOneRunItsArguments(t *testing.T) {
	te := startEngine(t, argsProject, Options{NoWatchdog: true})
	te.waitState("keep", rules.StateStarting)

	run, err := te.StartArgs("echo", map[string]string{"msg": "'; touch pwned; echo '", "count": "3"})
	require.NoError(t, err)
	res := te.runEnded("echo", run)
	assert.Equal(t, rules.StateCompleted, res.State, res.Message)
	assert.Contains(t, res.Logs, "arg='; touch pwned; echo ' env='; touch pwned; echo ' count=3")
	_, statErr := os.Stat(filepath.Join(te.dir, "pwned"))
	assert.True(t, os.IsNotExist(statErr), "the value ran as shell code")

	run, err = te.Start("echo")
	require.NoError(t, err)
	res = te.runEnded("echo", run)
	assert.Contains(t, res.Logs, "arg=hello env=hello count=1", "the next run has the defaults")

	// A bad value is refused before anything starts: the task keeps its run.
	_, err = te.StartArgs("echo", map[string]string{"count": "many", "mgs": "x"})
	var argErr *config.ArgError
	require.ErrorAs(t, err, &argErr)
	assert.Equal(t, []string{
		`unknown argument "mgs" (did you mean "msg"?): echo takes msg (string), count (integer)`,
		`argument count must be an integer, got "many"`,
	}, argErr.Problems)
	st, err := te.StatusOf("echo")
	require.NoError(t, err)
	assert.Equal(t, run, st.Run)
	assert.Equal(t, rules.StateCompleted, st.State)

	// So are arguments to a process that takes none.
	_, err = te.StartArgs("keep", map[string]string{"x": "1"})
	require.ErrorAs(t, err, &argErr)
	assert.Equal(t, []string{"keep takes no arguments (got x)"}, argErr.Problems)

	// A required argument without a value is refused the same way.
	_, err = te.Start("deploy")
	require.ErrorAs(t, err, &argErr)
	assert.Equal(t, []string{"missing required argument target (string): give it a value, e.g. procs run deploy --arg target=VALUE"}, argErr.Problems)
	run, err = te.StartArgs("deploy", map[string]string{"target": "staging"})
	require.NoError(t, err)
	assert.Contains(t, te.runEnded("deploy", run).Logs, "deploying staging")
}

// TestStartArgsRefusesToJoinARunGoing: a run with arguments never joins a
// run going (it would run with other arguments); without arguments, a
// start joins it as before.
func TestStartArgsRefusesToJoinARunGoing(t *testing.T) {
	te := startEngine(t, argsProject, Options{NoWatchdog: true})
	run, err := te.StartArgs("slow", map[string]string{"label": "first"})
	require.NoError(t, err)
	te.waitFor("slow starting", func(ev Event) bool {
		return ev.Proc == "slow" && ev.Run == run && ev.Type == EventState && ev.To == rules.StateStarting
	})

	_, err = te.StartArgs("slow", map[string]string{"label": "second"})
	var busy *TaskBusyError
	require.ErrorAs(t, err, &busy)
	assert.Equal(t, run, busy.Run)
	assert.Contains(t, err.Error(), "slow is busy: run 1 is")

	joined, err := te.Start("slow")
	require.NoError(t, err)
	assert.Equal(t, run, joined, "a start without arguments joins the run going")

	_, err = te.Stop("slow")
	require.NoError(t, err)
	te.runEnded("slow", run)
	run, err = te.StartArgs("slow", map[string]string{"label": "second"})
	require.NoError(t, err)
	assert.Equal(t, 2, run)
}
