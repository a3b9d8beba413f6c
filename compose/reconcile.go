package compose

import (
	"errors"
	"maps"
	"slices"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// ErrNoReload is returned by Reload when the engine was given no way to
// load its config again (Options.Load).
var ErrNoReload = errors.New("this procs cannot reload its config")

// Reload loads the config again (Options.Load) and applies it; see Apply.
// A config error changes nothing and is returned as is.
func (e *Engine) Reload(only []string) (Reconciled, error) {
	if e.opts.Load == nil {
		return Reconciled{}, ErrNoReload
	}
	next, err := e.opts.Load()
	if err != nil {
		return Reconciled{}, err
	}
	return e.Apply(next, only)
}

// Apply reconciles the running processes with next, like `docker compose
// up`: processes whose definition changed restart (and their restart: true
// dependents after them), new ones start in dependency order, removed ones
// stop. only, when set, also starts those processes and their dependencies
// if they are not running.
func (e *Engine) Apply(next *config.Config, only []string) (Reconciled, error) {
	order, err := next.StartOrder()
	if err != nil {
		return Reconciled{}, err
	}
	var wanted []string
	if len(only) > 0 {
		if wanted, err = next.WithDependencies(only...); err != nil {
			return Reconciled{}, err
		}
	}
	var rec Reconciled
	doErr := e.do(func() {
		if e.shuttingDown {
			err = ErrShuttingDown
			return
		}
		rec, err = e.apply(next, order, wanted)
	})
	if doErr != nil {
		return Reconciled{}, doErr
	}
	return rec, err
}

// apply runs on the engine goroutine.
func (e *Engine) apply(next *config.Config, order, only []string) (Reconciled, error) {
	diff := config.DiffConfigs(e.cfg, next)
	diff = diff.WithEnvChanged(next, e.envChanged(next, diff.Unchanged))
	// Prepare every new state before touching anything: a preset or
	// onIdle error must leave the running processes as they are.
	fresh := map[string]*procState{}
	for _, name := range slices.Concat(diff.Added, diff.Changed) {
		ps, err := e.prepareState(next.Procs[name])
		if err != nil {
			return Reconciled{}, err
		}
		fresh[name] = ps
	}
	rec := Reconciled{Diff: diff, Started: []string{}, Restarted: []string{}, Stopped: []string{}, Updated: []string{}, Waits: []WaitTarget{}}
	for _, name := range diff.Removed {
		e.removeProc(e.procs[name])
		rec.Stopped = append(rec.Stopped, name)
	}
	e.useConfig(next, order)
	for _, name := range diff.Added {
		ps := fresh[name]
		e.procs[name] = ps
		if ps.wanted {
			rec.Started = append(rec.Started, name)
			rec.Waits = append(rec.Waits, e.waitTarget(ps, ps.run+1, ""))
		}
	}
	for _, name := range diff.Changed {
		ps := e.procs[name]
		neverRan := ps.run == 0
		why := "definition changed in " + baseName(e.cfg.File)
		if slices.Contains(diff.EnvChanged, name) {
			why = "environment changed (env file edited)"
		}
		switch restarts := e.replaceDefinition(ps, fresh[name], why); {
		case restarts && neverRan:
			rec.Started = append(rec.Started, name)
			rec.Waits = append(rec.Waits, e.waitTarget(ps, 1, ""))
		case restarts:
			rec.Restarted = append(rec.Restarted, name)
		default:
			rec.Updated = append(rec.Updated, name)
		}
	}
	rec.Waits = append(rec.Waits, e.restartTargets(rec.Restarted, false)...)
	rec.Restarted = namesOf(rec.Waits, rec.Started)
	for _, name := range only {
		e.startAgain(&rec, e.procs[name], "start requested")
	}
	// As docker compose up starts exited containers, up brings a failed
	// process up again, changed or not: "up" means everything runs (up
	// NAME... has just done so for its names, above).
	for _, name := range order {
		if ps := e.procs[name]; len(only) == 0 && ps.wanted && ps.state == rules.StateFailed {
			e.startAgain(&rec, ps, "failed; started again by up")
		}
	}
	e.applyLogRetention()
	return rec, nil
}

// envChanged lists the processes of names whose current run was given
// other values from the config than next gives them now: an env file was
// edited, or a variable it held was removed. A process not running is
// left out, as its next run reads the files anyway.
func (e *Engine) envChanged(next *config.Config, names []string) []string {
	var out []string
	for _, name := range names {
		ps := e.procs[name]
		if ps == nil || !ps.running() || ps.runEnv == nil {
			continue
		}
		env, err := next.Environment(next.Procs[name])
		if err != nil || !maps.Equal(env, ps.runEnv) {
			out = append(out, name) // an unreadable file fails the restart, which says why
		}
	}
	return out
}

// startAgain starts ps when it is not running, not waiting to restart,
// not a completed task, and not already started by this reconcile.
func (e *Engine) startAgain(rec *Reconciled, ps *procState, reason string) {
	name := ps.cfg.Name
	if ps.running() || ps.backoff != nil || ps.state == rules.StateCompleted || slices.Contains(rec.Restarted, name) || slices.Contains(rec.Started, name) {
		return
	}
	ps.wanted = true
	e.setState(ps, rules.StatePending, "start", reason)
	rec.Started = append(rec.Started, name)
	rec.Waits = append(rec.Waits, e.waitTarget(ps, ps.run+1, ""))
}

// prepareState builds the state of a new or changed definition without
// opening anything: logs and ring come from the old state, or are opened
// when the process is added.
func (e *Engine) prepareState(p *config.Proc) (*procState, error) {
	if old := e.procs[p.Name]; old != nil {
		d, err := DetectionOf(p)
		if err != nil {
			return nil, err
		}
		ps := &procState{cfg: p, detect: d.Spec, preset: d.presetName(), presetEnv: d.presetEnv(), pty: usesPTY(p, d.presetName())}
		return ps, checkIdleConfig(ps)
	}
	ps, err := e.newProcState(p, !p.Disabled)
	if err != nil {
		return nil, err
	}
	return ps, checkIdleConfig(ps)
}

// replaceDefinition gives ps its new definition (from fresh) and restarts
// it if it should run, saying why; it reports whether it restarts.
func (e *Engine) replaceDefinition(ps, fresh *procState, why string) bool {
	ps.takeDefinition(fresh)
	switch {
	case ps.cfg.Disabled:
		if ps.running() || ps.backoff != nil || ps.wanted {
			e.stopForGood(ps, "disabled")
		}
		return false
	case !ps.wanted && ps.run > 0:
		return false // stopped on request: it stays stopped, with its new definition
	}
	e.publishInfo(ps, "changed", why+"; restarting")
	e.requestRestart(ps)
	return true
}

// takeDefinition gives ps the definition prepared in fresh; the run in
// progress keeps the one it started with.
func (ps *procState) takeDefinition(fresh *procState) {
	if ps.idle != nil {
		ps.idle.disarm()
	}
	ps.cfg, ps.detect, ps.preset, ps.presetEnv, ps.pty, ps.idle = fresh.cfg, fresh.detect, fresh.preset, fresh.presetEnv, fresh.pty, fresh.idle
}

// removeProc stops a process that is no longer in the config; its state is
// dropped once its run has ended.
func (e *Engine) removeProc(ps *procState) {
	ps.removed = true
	e.stopForGood(ps, "removed from "+baseName(e.cfg.File))
	if !ps.running() {
		e.forget(ps)
	}
}

// stopForGood stops ps and keeps it stopped.
func (e *Engine) stopForGood(ps *procState, why string) {
	ps.wanted, ps.restartPending = false, false
	if ps.backoff != nil {
		ps.backoff.Stop()
		ps.backoff = nil
	}
	if ps.running() {
		if ps.state != rules.StateStopping {
			e.stopRun(ps, true)
		}
		return
	}
	e.setState(ps, rules.StateStopped, "stopped", why)
}

// forget drops the state of a removed process whose run has ended.
func (e *Engine) forget(ps *procState) {
	if ps.idle != nil {
		ps.idle.disarm()
	}
	if ps.logs != nil {
		_ = ps.logs.Close()
	}
	e.waiters = slices.DeleteFunc(e.waiters, func(w *waiter) bool {
		if w.name != ps.cfg.Name {
			return false
		}
		w.answer(e.result(ps, w, false, "removed from the config"))
		return true
	})
	delete(e.procs, ps.cfg.Name)
}

// restartTargets lists what to wait for after restarting names: each one's
// next run and, unless noDeps, the next run of every dependent that will
// follow it (restart: true, running or blocked now), transitively.
func (e *Engine) restartTargets(names []string, noDeps bool) []WaitTarget {
	restarting := map[string]string{}
	var out []WaitTarget
	for _, name := range e.order {
		ps := e.procs[name]
		if slices.Contains(names, name) {
			restarting[name] = ""
			out = append(out, e.waitTarget(ps, ps.run+1, ""))
			continue
		}
		if noDeps || !(ps.running() || ps.state == rules.StateBlocked) {
			continue
		}
		for _, dep := range ps.cfg.DependsOn {
			if _, ok := restarting[dep.Name]; ok && dep.Restart {
				restarting[name] = dep.Name
				out = append(out, e.waitTarget(ps, ps.run+1, dep.Name))
				break
			}
		}
	}
	return out
}

func (e *Engine) waitTarget(ps *procState, run int, after string) WaitTarget {
	targets := []rules.State{rules.StateReady}
	if ps.cfg.IsTask() {
		targets = append(targets, rules.StateCompleted)
	}
	return WaitTarget{Name: ps.cfg.Name, Run: run, Targets: targets, After: after}
}

// namesOf lists the names of targets, leaving out those in skip.
func namesOf(targets []WaitTarget, skip []string) []string {
	out := []string{}
	for _, t := range targets {
		if !slices.Contains(skip, t.Name) && !slices.Contains(out, t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}

func baseName(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[i+1:]
		}
	}
	if path == "" {
		return "the config"
	}
	return path
}
