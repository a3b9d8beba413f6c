package compose

import (
	"fmt"
	"maps"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/lifecycle"
)

// RestartMany restarts the processes matching patterns (names or globs such
// as 'worker-*'; every process when there are none), in dependency order.
// Unless noDeps, the dependents that declare restart: true follow each one
// once it is ready, and are among the runs to wait for. A process whose
// definition was edited on disk restarts with the new definition (the rest
// of the edit waits for `procs up`), and a note says so.
func (e *Engine) RestartMany(patterns []string, noDeps bool) (RestartPlan, error) {
	var onDisk *config.Config
	var loadErr error
	var found definitionsRead
	if e.opts.Load != nil {
		e.reconfigure.Lock()
		defer e.reconfigure.Unlock()
		if onDisk, _, loadErr = e.load(e.scaleOverrides()); onDisk != nil {
			found = readDefinitions(onDisk, false)
		}
	}
	var plan RestartPlan
	var err error
	if doErr := e.do(func() {
		if e.life.ShuttingDown() {
			err = ErrShuttingDown
			return
		}
		var names []string
		if names, err = e.life.Match(patterns); err != nil {
			return
		}
		plan.Notes = e.takeEditedDefinitions(names, onDisk, loadErr, found)
		var targets []lifecycle.Target
		targets, err = e.life.Restart(names, noDeps)
		err = apiError(err)
		plan.Waits = waitTargets(targets)
	}); doErr != nil {
		return RestartPlan{}, doErr
	}
	return plan, err
}

// takeEditedDefinitions gives each named process whose definition changed
// on disk its new one, when the result is a config that holds together,
// and returns notes saying what it did or why it could not.
func (e *Engine) takeEditedDefinitions(names []string, onDisk *config.Config, loadErr error, found definitionsRead) []string {
	file := e.cfg.FileName()
	if loadErr != nil {
		return []string{fmt.Sprintf("%s has errors (run `procs check`); restarting with the definition procs runs", file)}
	}
	if onDisk == nil {
		return nil
	}
	merged := *e.cfg
	merged.Procs = maps.Clone(e.cfg.Procs)
	var notes, edited []string
	for _, name := range names {
		p := onDisk.Procs[name]
		switch {
		case p == nil:
			notes = append(notes, fmt.Sprintf("%s is no longer in %s; run `procs up` to apply the edit", name, file))
		case !config.SameProc(p, e.cfg.Procs[name]):
			merged.Procs[name] = p
			edited = append(edited, name)
		}
	}
	if len(edited) == 0 {
		return notes
	}
	order, reason := holdsTogether(&merged)
	if reason != "" {
		return append(notes, fmt.Sprintf("%s changed in %s, but %s; run `procs up` to apply the whole edit", edited, file, reason))
	}
	defs := map[string]lifecycle.Definition{}
	for _, name := range edited {
		fresh, err := e.prepareState(merged.Procs[name], found)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s changed in %s, but %v; restarting with the definition procs runs", name, file, err))
			merged.Procs[name] = e.cfg.Procs[name]
			continue
		}
		e.procs[name].takeDefinition(fresh)
		defs[name] = lifecycle.Definition{Proc: fresh.cfg, Interactive: fresh.drivenByInput()}
		notes = append(notes, fmt.Sprintf("%s: definition changed in %s; using it", name, file))
	}
	e.useConfig(&merged)
	e.life.Define(&merged, order, defs)
	return notes
}

// holdsTogether says why a config mixing running and edited definitions
// cannot run ("" when it can): a dependency on a process it lacks, or a
// cycle. When it can, it returns the config's start order.
func holdsTogether(cfg *config.Config) ([]string, string) {
	for _, name := range cfg.Names() {
		for _, dep := range cfg.Procs[name].DependsOn {
			if cfg.Procs[dep.Name] == nil {
				return nil, fmt.Sprintf("%s depends on %s, which procs does not run yet", name, dep.Name)
			}
		}
	}
	order, err := cfg.StartOrder()
	if err != nil {
		return nil, err.Error()
	}
	return order, ""
}
