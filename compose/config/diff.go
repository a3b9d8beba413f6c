package config

import (
	"reflect"
	"slices"
)

// Diff is what changed between the config procs runs and a new one, as
// `procs up` on a running project applies it (like `docker compose up`).
// Every list is in the new config's start order (Removed in the old one's).
type Diff struct {
	// Added are processes only in the new config.
	Added []string `json:"added"`
	// Removed are processes only in the old config.
	Removed []string `json:"removed"`
	// Changed are processes whose effective definition differs: their own
	// settings, or the settings every process inherits (env, envFile).
	Changed []string `json:"changed"`
	// Dependents are processes not changed themselves that restart because
	// a changed process they depend on with restart: true restarts.
	Dependents []string `json:"dependents"`
	// Unchanged are processes in both configs with the same definition.
	Unchanged []string `json:"unchanged"`
	// EnvChanged are the processes of Changed whose definition is the same
	// but whose env files now give them other values than their run has
	// (see WithEnvChanged).
	EnvChanged []string `json:"envChanged"`
	// Rescheduled are processes whose definition differs in its
	// schedule: alone (set, edited or removed): no reason to restart or
	// run them now, but their next time moves, which a reload says.
	Rescheduled []string `json:"rescheduled"`
}

// Empty reports whether the two configs define the same processes alike.
func (d Diff) Empty() bool {
	return len(d.Added) == 0 && len(d.Removed) == 0 && len(d.Changed) == 0
}

// Restarts lists the processes the diff restarts: the changed ones and
// their restart: true dependents, in start order of the new config.
func (d Diff) Restarts(next *Config) []string {
	order, err := next.StartOrder()
	if err != nil {
		order = next.Names()
	}
	var out []string
	for _, name := range order {
		if slices.Contains(d.Changed, name) || slices.Contains(d.Dependents, name) {
			out = append(out, name)
		}
	}
	return out
}

// DiffConfigs compares the running config old with next. next must be a
// checked config (Load's result), so its start order exists.
func DiffConfigs(old, next *Config) Diff {
	d := Diff{Added: []string{}, Removed: []string{}, Changed: []string{}, Dependents: []string{}, Unchanged: []string{}, EnvChanged: []string{}, Rescheduled: []string{}}
	order, err := next.StartOrder()
	if err != nil {
		order = next.Names()
	}
	shared := old.EnvFile == next.EnvFile && reflect.DeepEqual(nonNil(old.Env), nonNil(next.Env))
	for _, name := range order {
		p, before := next.Procs[name], old.Procs[name]
		switch {
		case before == nil:
			d.Added = append(d.Added, name)
		case !shared || !SameProc(before, p) || old.ResourcesOf(before) != next.ResourcesOf(p):
			d.Changed = append(d.Changed, name)
		default:
			d.Unchanged = append(d.Unchanged, name)
			if scheduleSpec(before.Schedule) != scheduleSpec(p.Schedule) {
				d.Rescheduled = append(d.Rescheduled, name)
			}
		}
	}
	if oldOrder, err := old.StartOrder(); err == nil {
		for _, name := range oldOrder {
			if next.Procs[name] == nil {
				d.Removed = append(d.Removed, name)
			}
		}
	}
	d.Dependents = restartDependents(next, order, d.Changed)
	d.Unchanged = slices.DeleteFunc(d.Unchanged, func(n string) bool { return slices.Contains(d.Dependents, n) })
	return d
}

// scheduleSpec says when s runs, "" for no schedule.
func scheduleSpec(s *Schedule) string {
	if s == nil {
		return ""
	}
	return s.String()
}

// WithEnvChanged returns d with the unchanged processes named in envChanged
// moved to Changed (and listed in EnvChanged): their definition is the same,
// but the env files it names now hold other values than their run was
// given, which the config alone cannot show. Their restart: true
// dependents follow them.
func (d Diff) WithEnvChanged(next *Config, envChanged []string) Diff {
	order, err := next.StartOrder()
	if err != nil {
		order = next.Names()
	}
	moved := false
	changed := slices.Clone(d.Changed)
	for _, name := range order {
		if slices.Contains(envChanged, name) && slices.Contains(d.Unchanged, name) {
			changed = append(changed, name)
			d.EnvChanged = append(slices.Clone(d.EnvChanged), name)
			moved = true
		}
	}
	if !moved {
		return d
	}
	// Back in start order, as every list of a Diff is.
	d.Changed = slices.DeleteFunc(slices.Clone(order), func(n string) bool { return !slices.Contains(changed, n) })
	d.Dependents = restartDependents(next, order, d.Changed)
	d.Unchanged = slices.DeleteFunc(slices.Clone(d.Unchanged), func(n string) bool {
		return slices.Contains(d.Changed, n) || slices.Contains(d.Dependents, n)
	})
	return d
}

// restartDependents follows restart: true edges from the changed processes,
// transitively, and returns the unchanged processes they reach in order.
func restartDependents(cfg *Config, order, changed []string) []string {
	restarting := map[string]bool{}
	for _, name := range changed {
		restarting[name] = true
	}
	out := []string{}
	// Start order puts every dependency before its dependents, so one pass
	// sees each process after all it depends on.
	for _, name := range order {
		if restarting[name] {
			continue
		}
		for _, dep := range cfg.Procs[name].DependsOn {
			if dep.Restart && restarting[dep.Name] {
				restarting[name] = true
				out = append(out, name)
				break
			}
		}
	}
	return out
}

// SameProc reports whether two definitions of a process are the same.
func SameProc(a, b *Proc) bool {
	return reflect.DeepEqual(normalized(a), normalized(b))
}

// normalized is a copy of p in which an empty map or list equals a nil one.
// Its logs: is left out: a new retention applies to the running log, with
// no restart; so are its description, which no run sees, and its
// schedule:, which the engine arms again, since a new time is no reason to
// run the task now. Nor is where a value read ${PORT} (portReader): the
// value itself is compared, and a line moved is no change.
func normalized(p *Proc) Proc {
	n := *p
	n.Logs, n.Description, n.Schedule, n.portReader = nil, "", nil, nil
	n.Env = nonNil(n.Env)
	// A dependency on a replicated process is one, whatever its number of
	// instances: scaling it leaves its dependents as they are.
	n.DependsOn = declaredDependencies(n.DependsOn)
	if len(n.DependsOn) == 0 {
		n.DependsOn = nil
	}
	return n
}

func nonNil(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}
