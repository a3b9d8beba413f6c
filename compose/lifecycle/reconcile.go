package lifecycle

import (
	"slices"
	"strings"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// Definition is a process definition to take, with what the engine
// detected of it.
type Definition struct {
	Proc        *config.Proc
	Interactive bool
}

// Reconciled says what applying a new config did.
type Reconciled struct {
	// Started are processes started: new ones, and those named to up.
	Started []string
	// Restarted are changed processes restarted, and the dependents that
	// follow them (restart: true), in start order.
	Restarted []string
	// Stopped are processes removed from the config, stopped (those
	// still running are among Waits until their run has ended).
	Stopped []string
	// Updated are changed processes that were not running (stopped on
	// request, or now disabled): they run the new definition when started.
	Updated []string
	// Waits are the runs to wait for to see the changes ready.
	Waits []Target
}

// Up is what procs up asks of a reconcile beyond the config it applies.
type Up struct {
	// Only also starts these processes if they are not running (procs up
	// NAME..., with their dependencies).
	Only []string
	// Profiles are made active from now on (procs up --profile): what up
	// starts of them starts, and their schedules are for the engine to arm
	// (UpSchedules). No profile is ever made inactive again.
	Profiles []string
}

// Reconcile moves the processes to next, started in order, like `docker
// compose up`: processes whose definition changed (diff.Changed, with
// their new definitions in defs) restart, and their restart: true
// dependents after them; new ones (diff.Added, in defs) start in
// dependency order, each once the processes removed are no longer ending;
// removed ones stop and are forgotten once their run has ended. up.Only,
// when set, also starts those processes if they are not running; without
// it, a failed process is started again. up.Profiles become active, and
// what up starts of them starts.
func (m *Machine) Reconcile(next *config.Config, order []string, diff config.Diff, defs map[string]Definition, up Up) (Reconciled, error) {
	defer m.settle()
	if m.shuttingDown {
		return Reconciled{}, ErrShuttingDown
	}
	only := up.Only
	rec := Reconciled{Started: []string{}, Restarted: []string{}, Stopped: []string{}, Updated: []string{}, Waits: []Target{}}
	for _, name := range diff.Removed {
		if ps := m.procs[name]; ps != nil {
			m.remove(ps)
			if !ps.running {
				m.forget(ps)
			} else {
				// Its stop may take its timeout, and the run holds its
				// port until then: what waits sees it end.
				rec.Waits = append(rec.Waits, Target{Name: name, Run: ps.Run, States: []rules.State{stopped}})
			}
			rec.Stopped = append(rec.Stopped, name)
		}
	}
	m.useConfig(next, order)
	for _, name := range slices.Concat(diff.Unchanged, diff.Dependents) {
		// The same definition, but perhaps depending on other instances
		// (a replicated process it depends on was scaled): they are waited for.
		if ps := m.procs[name]; ps != nil {
			ps.Cfg = next.Procs[name]
		}
	}
	for _, name := range diff.Added {
		delete(m.ended, name) // a wait now is for the new definition's runs
		def := defs[name]
		if old := m.procs[name]; old != nil {
			m.readd(&rec, old, def)
			continue
		}
		ps := m.newProc(def.Proc, m.upStarts(def.Proc), def.Interactive)
		m.added(ps)
		m.procs[name] = ps
		m.inOrder = nil
		if ps.intent.wanted {
			rec.Started = append(rec.Started, name)
			rec.Waits = append(rec.Waits, m.target(ps, ps.Run+1, ""))
		}
	}
	for _, name := range diff.Changed {
		m.reconcileChanged(&rec, m.procs[name], defs[name], slices.Contains(diff.EnvChanged, name))
	}
	rec.Waits = append(rec.Waits, m.restartTargets(rec.Restarted, false)...)
	rec.Restarted = restartedOf(rec.Waits, rec.Started)
	for _, name := range only {
		m.startAgain(&rec, m.procs[name], "start requested")
	}
	m.activateProfiles(&rec, next, up.Profiles)
	// As docker compose up starts exited containers, up brings a failed
	// process up again, changed or not: "up" means everything runs (up
	// NAME... has just done so for its names, above). What up does not
	// start (a disabled task that procs run ran, a scheduled one, one of
	// an inactive profile) waits to be asked again.
	for _, name := range order {
		if ps := m.procs[name]; len(only) == 0 && ps.intent.wanted && ps.State == failed && m.upStarts(ps.Cfg) {
			m.startAgain(&rec, ps, "failed; started again by up")
		}
	}
	rec.Waits = append(rec.Waits, m.unblockedTargets(rec.Waits)...)
	return rec, nil
}

// upTakes says whether p is among what procs up runs: not disabled, and
// of an active profile (or none). It starts p, or arms its schedule.
func (m *Machine) upTakes(p *config.Proc) bool {
	return !p.Disabled && p.ActiveIn(m.opts.Profiles)
}

// upStarts says whether procs up starts p: up takes it, and it is not a
// task that waits for its schedule.
func (m *Machine) upStarts(p *config.Proc) bool {
	return m.upTakes(p) && !p.WaitsForSchedule()
}

// UpSchedules says whether procs up arms the schedule of p: a scheduled
// task that up takes. The engine arms those (of the names procs up was
// given, when it was given names).
func (m *Machine) UpSchedules(p *config.Proc) bool {
	return p.Schedule != nil && m.upTakes(p)
}

// activateProfiles makes profiles active, and starts what procs up starts
// now that they are (next.UpSet: their processes and the dependencies of
// those, whatever their own profiles) among the processes left stopped
// for their profile, as a procs started with them would have. A scheduled
// task of them reads scheduled once the engine arms it (Scheduled).
func (m *Machine) activateProfiles(rec *Reconciled, next *config.Config, profiles []string) {
	var activated []string
	for _, name := range profiles {
		if !slices.Contains(m.opts.Profiles, name) && !slices.Contains(activated, name) {
			activated = append(activated, name)
		}
	}
	if len(activated) == 0 {
		return
	}
	m.opts.Profiles = slices.Concat(m.opts.Profiles, activated)
	up := next.UpSet(m.opts.Profiles)
	why := "started by procs up --profile " + strings.Join(activated, ",")
	for _, name := range m.order {
		ps := m.procs[name]
		if ps.State == stopped && ps.Reason == rules.ReasonProfile && slices.Contains(up, name) {
			m.startAgain(rec, ps, why)
		}
	}
}

// unblockedTargets are the waits for the processes that what waits
// unblocks: wanted, not running, waiting (pending or blocked) for a
// dependency started or restarted here, at any depth, each after that
// dependency. A dependent of a failed process, blocked until its fix, is
// part of what up --wait brings up.
func (m *Machine) unblockedTargets(waits []Target) []Target {
	waited := map[string]bool{}
	for _, t := range waits {
		waited[t.Name] = true
	}
	var out []Target
	for _, name := range m.order {
		ps := m.procs[name]
		if waited[name] || !ps.intent.wanted || ps.running || ps.State != blocked && ps.State != pending {
			continue
		}
		for _, dep := range ps.Cfg.DependsOn {
			if waited[dep.Name] {
				waited[name] = true
				out = append(out, m.target(ps, ps.Run+1, dep.Name))
				break
			}
		}
	}
	return out
}

// readd takes back a process removed by an earlier reconcile whose last
// run is still ending: it keeps its runs' count and starts its new
// definition once that run has ended, never beside it.
func (m *Machine) readd(rec *Reconciled, ps *Proc, def Definition) {
	ps.intent.removed = false
	ps.Cfg, ps.Interactive = def.Proc, def.Interactive
	if def.Proc.Disabled {
		return
	}
	m.requestRestart(ps)
	rec.Started = append(rec.Started, ps.Cfg.Name)
	rec.Waits = append(rec.Waits, m.target(ps, ps.Run+1, ""))
}

// reconcileChanged gives a changed process its new definition and
// restarts it if it should run.
func (m *Machine) reconcileChanged(rec *Reconciled, ps *Proc, def Definition, envChanged bool) {
	neverRan := ps.Run == 0
	why := "definition changed in " + m.file
	if envChanged {
		why = "environment changed (env file edited)"
	}
	switch restarts := m.replaceDefinition(ps, def, why); {
	case restarts && neverRan:
		rec.Started = append(rec.Started, ps.Cfg.Name)
		rec.Waits = append(rec.Waits, m.target(ps, 1, ""))
	case restarts:
		rec.Restarted = append(rec.Restarted, ps.Cfg.Name)
	default:
		rec.Updated = append(rec.Updated, ps.Cfg.Name)
	}
}

// replaceDefinition gives ps its new definition and restarts it if it
// should run, saying why; it reports whether it restarts.
func (m *Machine) replaceDefinition(ps *Proc, def Definition, why string) bool {
	ps.Cfg, ps.Interactive = def.Proc, def.Interactive
	switch {
	case ps.Cfg.Disabled:
		if ps.running || ps.intent.backoff || ps.intent.wanted {
			m.stopForGood(ps, "disabled")
		}
		return false
	case !ps.intent.wanted && ps.Run > 0:
		return false // stopped on request: it stays stopped, with its new definition
	case ps.Cfg.Schedule != nil && !ps.running && !ps.intent.backoff:
		return false // a scheduled task runs its new definition at its next time
	}
	m.info(ps, rules.ReasonChanged, why+"; restarting")
	m.requestRestart(ps)
	return true
}

// startAgain starts ps when it is not running, not waiting to restart,
// not a completed task, and not already started by this reconcile.
func (m *Machine) startAgain(rec *Reconciled, ps *Proc, reason string) {
	name := ps.Cfg.Name
	if ps.running || ps.intent.backoff || ps.State == completed || slices.Contains(rec.Restarted, name) || slices.Contains(rec.Started, name) {
		return
	}
	m.want(ps)
	m.setState(ps, pending, rules.ReasonStart, reason)
	rec.Started = append(rec.Started, name)
	rec.Waits = append(rec.Waits, m.target(ps, ps.Run+1, ""))
}

// Define gives processes of the config new definitions without a
// reconcile (a restart that takes the edited definition of the processes
// it restarts); cfg, started in order, becomes the config the machine runs.
func (m *Machine) Define(cfg *config.Config, order []string, defs map[string]Definition) {
	for name, def := range defs {
		if ps := m.procs[name]; ps != nil {
			ps.Cfg, ps.Interactive = def.Proc, def.Interactive
		}
	}
	m.useConfig(cfg, order)
}

// restartedOf lists the processes targets restart: those with a run before
// the one waited for, leaving out those started.
func restartedOf(targets []Target, started []string) []string {
	out := []string{}
	for _, t := range targets {
		// Run 1 is a first run: a blocked dependent that never ran starts.
		if t.Run > 1 && !slices.Contains(started, t.Name) && !slices.Contains(out, t.Name) {
			out = append(out, t.Name)
		}
	}
	return out
}
