package compose

import (
	"errors"
	"maps"
	"slices"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// ErrNoReload is returned by Reload when the engine was given no way to
// load its config again (Options.Load).
var ErrNoReload = errors.New("this procs cannot reload its config")

// Reload loads the config again (Options.Load) and applies it; see Apply.
// scale, when set, changes the number of instances of those processes
// from now on, as Scale does; profiles, when set, become active from now
// on (procs up --profile), as if procs had been started with them: what
// procs up starts of them starts, and their scheduled tasks are scheduled.
// A config error changes nothing and is returned as is.
func (e *Engine) Reload(only []string, scale map[string]int, profiles []string) (Reconciled, error) {
	if e.opts.Load == nil {
		return Reconciled{}, ErrNoReload
	}
	e.reconfigure.Lock()
	defer e.reconfigure.Unlock()
	next, overrides, err := e.load(e.scaleWith(scale))
	if err != nil {
		return Reconciled{}, err
	}
	rec, err := e.applyUp(next, only, profiles)
	if err == nil {
		e.scale.Store(&overrides)
	}
	return rec, err
}

// Apply reconciles the running processes with next, like `docker compose
// up`: processes whose definition changed restart (and their restart: true
// dependents after them), new ones start in dependency order, removed ones
// stop. only, when set, also starts those processes and their dependencies
// if they are not running.
func (e *Engine) Apply(next *config.Config, only []string) (Reconciled, error) {
	return e.applyUp(next, only, nil)
}

// applyUp is Apply, making profiles active too (see Reload).
func (e *Engine) applyUp(next *config.Config, only, profiles []string) (Reconciled, error) {
	order, err := next.StartOrder()
	if err != nil {
		return Reconciled{}, err
	}
	var wanted []string
	if len(only) > 0 {
		if wanted, err = next.WithDependencies(next.Resolve(only)...); err != nil {
			return Reconciled{}, err
		}
	}
	// What the new config needs from disk is read here, before the request
	// enters the loop: a slow disk never stalls the engine.
	found := readDefinitions(next, true)
	var rec Reconciled
	up := lifecycle.Up{Only: wanted, Profiles: profiles}
	doErr := e.do(func() { rec, err = e.apply(next, order, up, found) })
	if doErr != nil {
		return Reconciled{}, doErr
	}
	return rec, err
}

// apply runs on the engine goroutine.
func (e *Engine) apply(next *config.Config, order []string, up lifecycle.Up, found definitionsRead) (Reconciled, error) {
	if e.life.ShuttingDown() {
		return Reconciled{}, ErrShuttingDown
	}
	diff := config.DiffConfigs(e.cfg, next)
	diff = diff.WithEnvChanged(next, e.envChanged(found, diff.Unchanged))
	// Prepare every new state before touching anything: a preset or
	// onIdle error must leave the running processes as they are.
	fresh := map[string]*procState{}
	defs := map[string]lifecycle.Definition{}
	for _, name := range slices.Concat(diff.Added, diff.Changed) {
		ps, err := e.prepareState(next.Procs[name], found)
		if err != nil {
			return Reconciled{}, err
		}
		fresh[name] = ps
		defs[name] = lifecycle.Definition{Proc: ps.cfg, Interactive: ps.drivenByInput()}
	}
	for _, name := range diff.Added {
		if old := e.procs[name]; old != nil {
			// Removed earlier, its last run still ending: the machine
			// takes it back, and so does the engine.
			old.takeDefinition(fresh[name])
			continue
		}
		e.procs[name] = fresh[name]
	}
	for _, name := range diff.Changed {
		e.procs[name].takeDefinition(fresh[name])
	}
	for _, name := range slices.Concat(diff.Unchanged, diff.Dependents) {
		// The same definition, but perhaps depending on other instances
		// (a replicated process it depends on was scaled).
		e.procs[name].cfg = next.Procs[name]
	}
	e.useConfig(next)
	done, err := e.life.Reconcile(next, order, diff, defs, up)
	if err != nil {
		return Reconciled{}, apiError(err)
	}
	for _, name := range diff.Added {
		e.procs[name].life = e.life.Proc(name)
	}
	e.applyLogRetention()
	armed := e.syncSchedules(true)
	scheduled := slices.DeleteFunc(armed, func(name string) bool { return slices.Contains(diff.Rescheduled, name) })
	return Reconciled{
		Diff: diff, Started: done.Started, Held: e.held(done.Started), Restarted: done.Restarted, Stopped: done.Stopped,
		Updated: done.Updated, Scheduled: append([]string{}, scheduled...), Waits: waitTargets(done.Waits),
	}, nil
}

// held lists those of names that wait to begin their run (pending or
// blocked), with what status says of each: a reload that says only
// "started: api" while api waits for a removed process to stop tells
// less than the truth.
func (e *Engine) held(names []string) []wire.HeldProcess {
	var held []wire.HeldProcess
	for _, name := range names {
		lp := e.life.Proc(name)
		waiting := lp != nil && (lp.State == rules.StatePending || lp.State == rules.StateBlocked)
		// Pending without a word is a start under way in dependency order.
		if waiting && lp.Message != "" {
			held = append(held, wire.HeldProcess{Name: name, State: lp.State, Message: lp.Message})
		}
	}
	return held
}

// definitionsRead is what a config's definitions need from disk: each
// process's detection (project files, package.json) and what its env
// files give it, or why they could not be read.
type definitionsRead struct {
	detections map[string]Detection
	detectErrs map[string]error
	envs       map[string]map[string]string
	envErrs    map[string]error
}

// readDefinitions reads what the definitions of cfg need from disk, the
// env files only when withEnv.
func readDefinitions(cfg *config.Config, withEnv bool) definitionsRead {
	found := definitionsRead{
		detections: map[string]Detection{}, detectErrs: map[string]error{},
		envs: map[string]map[string]string{}, envErrs: map[string]error{},
	}
	for name, p := range cfg.Procs {
		found.detections[name], found.detectErrs[name] = DetectionOf(p, cfg.Env)
		if withEnv {
			found.envs[name], found.envErrs[name] = cfg.Environment(p)
		}
	}
	return found
}

// envChanged lists the processes of names whose current run was given
// other values from the config than the new config gives them now: an env
// file was edited, or a variable it held was removed. A process not
// running is left out, as its next run reads the files anyway.
func (e *Engine) envChanged(found definitionsRead, names []string) []string {
	var out []string
	for _, name := range names {
		ps := e.procs[name]
		if ps == nil || !ps.running() || ps.runEnv == nil {
			continue
		}
		env, err := found.envs[name], found.envErrs[name]
		if err != nil || !maps.Equal(env, ps.runEnv) {
			out = append(out, name) // an unreadable file fails the restart, which says why
		}
	}
	return out
}

// prepareState builds the state of a new or changed definition from what
// was read of it: logs and ring come from the old state, or are made when
// the process is added.
func (e *Engine) prepareState(p *config.Proc, found definitionsRead) (*procState, error) {
	d, err := found.detections[p.Name], found.detectErrs[p.Name]
	if err != nil {
		return nil, err
	}
	ps := definedState(p, d)
	if e.procs[p.Name] == nil {
		ps = e.newProcState(p, d)
	}
	return ps, checkIdleConfig(ps)
}

// takeDefinition gives ps the definition prepared in fresh; the run in
// progress keeps the one it started with.
func (ps *procState) takeDefinition(fresh *procState) {
	if ps.idle != nil {
		ps.idle.disarm()
	}
	ps.cfg, ps.detect, ps.preset, ps.presetEnv, ps.pty, ps.idle = fresh.cfg, fresh.detect, fresh.preset, fresh.presetEnv, fresh.pty, fresh.idle
}

// waitTargets are the machine's targets as the API gives them.
func waitTargets(targets []lifecycle.Target) []WaitTarget {
	out := make([]WaitTarget, 0, len(targets))
	for _, t := range targets {
		out = append(out, WaitTarget{Name: t.Name, Run: t.Run, Targets: t.States, After: t.After})
	}
	return out
}
