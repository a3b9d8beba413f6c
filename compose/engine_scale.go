package compose

import (
	"maps"

	"github.com/procsdev/procs/compose/config"
)

// Scale runs the number of instances scale gives each process named, from
// now on: a config loaded again keeps it, as docker compose up --scale
// does. New instances start, removed ones stop; the instances kept and the
// processes that depend on them go on untouched. A task is not scaled
// (config.ScalableWhileRunning).
func (e *Engine) Scale(scale map[string]int) (Reconciled, error) {
	e.reconfigure.Lock()
	defer e.reconfigure.Unlock()
	if err := e.Config().ScalableWhileRunning(scale); err != nil {
		return Reconciled{}, err
	}
	overrides := e.scaleWith(scale)
	next, err := e.Config().Scaled(overrides)
	if err != nil {
		return Reconciled{}, err
	}
	rec, err := e.Apply(next, nil)
	if err == nil {
		e.scale.Store(&overrides)
	}
	return rec, err
}

// load reads the config again from disk with the instances scale asks for,
// and says which counts it kept: a process no longer in the file is no
// longer scaled.
func (e *Engine) load(scale map[string]int) (*config.Config, map[string]int, error) {
	cfg, err := e.opts.Load()
	if err != nil {
		return nil, nil, err
	}
	declared := cfg.Declared()
	kept := maps.Clone(scale)
	maps.DeleteFunc(kept, func(name string, _ int) bool { return declared[name] == nil })
	cfg, err = cfg.Scaled(kept)
	return cfg, kept, err
}

// scaleOverrides is the number of instances asked for so far, by process.
func (e *Engine) scaleOverrides() map[string]int {
	if scale := e.scale.Load(); scale != nil {
		return *scale
	}
	return nil
}

// scaleWith is the counts asked for so far with those of more over them.
func (e *Engine) scaleWith(more map[string]int) map[string]int {
	out := maps.Clone(e.scaleOverrides())
	if out == nil {
		out = map[string]int{}
	}
	maps.Copy(out, more)
	return out
}
