package compose

import (
	"fmt"
	"strings"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// runArgs are the arguments a start request gave a task, for the run it
// starts: that run alone gets them; the next one has the defaults again.
type runArgs struct {
	run   int
	bound config.BoundArgs
}

// TaskBusyError refuses a run with arguments of a task whose run is going
// (or about to start): joining it would silently run with other arguments.
type TaskBusyError struct {
	Name  string
	Run   int
	State rules.State
}

// Error says what is running and what to do.
func (e *TaskBusyError) Error() string {
	return fmt.Sprintf("%s is busy: run %d is %s, and a run with arguments does not join it; wait for it to end, or stop it (procs stop %s), then run it again",
		e.Name, e.Run, e.State, e.Name)
}

// StartArgs starts a task with arguments (name → value as text, as
// procs run --arg gives them) for that one run, and returns the run to
// wait for. The values are checked first (config.BindArgs): a bad one is
// a *config.ArgError and nothing starts. With no values it is Start: a
// run going is joined, else the run gets the defaults (and is refused,
// like a bad value, when a required argument has none).
func (e *Engine) StartArgs(name string, values map[string]string) (int, error) {
	var run int
	var err error
	if doErr := e.do(func() { run, err = e.startArgs(name, values) }); doErr != nil {
		return 0, doErr
	}
	return run, apiError(err)
}

// startArgs is StartArgs on the engine loop.
func (e *Engine) startArgs(name string, values map[string]string) (int, error) {
	ps, err := e.lookup(name)
	if err != nil {
		return 0, err
	}
	going := runGoing(ps)
	if going && values == nil {
		return e.life.Start(name) // joins it
	}
	bound, err := ps.cfg.BindArgs(values)
	switch {
	case err != nil:
		return 0, err
	case going:
		return 0, &TaskBusyError{Name: name, Run: max(ps.life.Run, 1), State: ps.life.State}
	}
	run, err := e.life.Start(name)
	if err == nil && ps.cfg.HasArgs() {
		ps.nextArgs = &runArgs{run: run, bound: bound}
	}
	return run, err
}

// runGoing reports whether a run of ps is alive or about to start, so
// that a start request would join it rather than start one.
func runGoing(ps *procState) bool {
	return ps.life.Running() || ps.life.InBackoff() || ps.life.State == rules.StatePending || ps.nextArgs != nil
}

// argsOf returns the arguments of run of ps: those its start request
// gave, else the defaults. A run started otherwise (procs up, a
// dependent, a restart) of a task with a required argument cannot start.
func argsOf(ps *procState, run int) (config.BoundArgs, error) {
	asked := ps.nextArgs
	ps.nextArgs = nil
	if asked != nil && asked.run == run {
		return asked.bound, nil
	}
	return ps.cfg.BindArgs(nil)
}

// forgetArgs drops the arguments of a run that will not start: the task
// stopped (or was blocked) before it did.
func forgetArgs(ps *procState, to rules.State) {
	if to == rules.StateStopped || to == rules.StateBlocked {
		ps.nextArgs = nil
	}
}

// environWithArgs adds the arguments' variables to the environment of a
// run, over any variable of the same name (from the shell procs runs in,
// or an env file).
func environWithArgs(base environ, bound config.BoundArgs) environ {
	extra := bound.Environ()
	if len(extra) == 0 {
		return base
	}
	return func() ([]string, map[string]string, error) {
		env, configured, err := base()
		if err != nil {
			return env, configured, err
		}
		for _, kv := range extra {
			name, _, _ := strings.Cut(kv, "=")
			env = setEnv(env, name, kv)
		}
		return env, configured, nil
	}
}

// setEnv replaces the variable name of env with kv, or appends kv.
func setEnv(env []string, name, kv string) []string {
	for i, old := range env {
		if k, _, ok := cutEnv(old); ok && k == name {
			env[i] = kv
			return env
		}
	}
	return append(env, kv)
}
