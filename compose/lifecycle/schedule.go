package lifecycle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// schedule starts every wanted process whose dependencies are satisfied
// and blocks those whose dependencies cannot be, in start order.
func (m *Machine) schedule() {
	if m.shuttingDown {
		m.advanceShutdown()
		return
	}
	ending := m.removedEnding()
	for _, ps := range m.procsInOrder() {
		if !ps.intent.wanted || ps.running || ps.intent.backoff {
			continue
		}
		if ps.State != pending && ps.State != blocked {
			continue
		}
		ok, why := m.depsSatisfied(ps)
		switch {
		case ok && ps.intent.awaitsRemoved && len(ending) > 0:
			m.setState(ps, pending, rules.ReasonWaiting, m.waitingForRemoved(ending))
		case ok:
			m.start(ps)
		case why != "":
			m.setState(ps, blocked, rules.ReasonDependency, why)
		case ps.State == blocked:
			// The blocking dependency is coming back: wait for it again.
			m.setState(ps, pending, rules.ReasonWaiting, "waiting for dependencies")
		}
	}
}

// removedEnding returns, sorted, the processes removed from the config
// whose last run is still ending. What one holds (its port, a socket, a
// lock) may be what a process added in its place needs: a rename is a
// removal and an addition. So a process a reconcile added starts once
// they have ended, never beside them, as a restart never starts its new
// run beside its old; a process that was there before does not wait for
// them (it ran beside them until now).
func (m *Machine) removedEnding() []string {
	if len(m.procs) <= len(m.order) {
		return nil // every process held is the config's
	}
	var ending []string
	for name, ps := range m.procs {
		if ps.intent.removed && ps.running {
			ending = append(ending, name)
		}
	}
	slices.Sort(ending)
	return ending
}

// waitingForRemoved says why a process added waits: "waiting for stub to
// stop (removed from procs.yaml)".
func (m *Machine) waitingForRemoved(ending []string) string {
	return fmt.Sprintf("waiting for %s to stop (removed from %s)", strings.Join(ending, ", "), m.file)
}

// start begins a new run of ps.
func (m *Machine) start(ps *Proc) {
	ps.Run++
	ps.PID, ps.Ports, ps.ExitCode = 0, nil, nil
	ps.WaitedFor = m.waitedFor(ps)
	ps.StartedAt = m.now()
	ps.running = true
	m.runBegins(ps)
	m.setState(ps, starting, rules.ReasonStart, startingMessage(ps))
	m.emit(StartRun{Name: ps.Cfg.Name, Run: ps.Run})
}

// waitedFor returns the dependency ps, about to start, waited for: of
// those there only since ps began waiting, the last; "" if ps did not wait.
func (m *Machine) waitedFor(ps *Proc) string {
	waited, last := "", ps.Since
	for _, dep := range ps.Cfg.DependsOn {
		if d := m.procs[dep.Name]; d != nil {
			if at := metAt(d, dep.Condition); at.After(last) {
				waited, last = dep.Name, at
			}
		}
	}
	return waited
}

// metAt is when dependency d met condition c, which it meets now.
func metAt(d *Proc, c config.Condition) time.Time {
	switch {
	case c == config.ConditionStarted && d.State != completed:
		return d.StartedAt
	case d.State == completed:
		return d.Since
	}
	return d.ReadyAt
}

// depsSatisfied says whether ps may start; when it may not, why is set if
// a dependency has failed or stopped for good (so ps is blocked), and
// empty if ps should keep waiting.
func (m *Machine) depsSatisfied(ps *Proc) (ok bool, why string) {
	ok = true
	for _, dep := range ps.Cfg.DependsOn {
		d := m.procs[dep.Name]
		if d == nil {
			// A dependency the config lacks: config validation refuses
			// it, so this is a definition taken ahead of its dependency.
			ok = false
			continue
		}
		if ConditionMet(d, dep.Condition) {
			continue
		}
		ok = false
		if reason := depBlocks(d, dep.Condition); reason != "" && why == "" {
			why = fmt.Sprintf("%s %s", dep.Name, reason)
		}
	}
	return ok, why
}

// ConditionMet reports whether dependency d satisfies condition c.
func ConditionMet(d *Proc, c config.Condition) bool {
	switch c {
	case config.ConditionStarted:
		return d.running && d.State != stopping || d.State == completed
	case config.ConditionCompleted:
		return d.State == completed
	default:
		switch d.State {
		case ready, unhealthy, completed, busy, input, perm:
			return true
		}
		return false
	}
}

// depBlocks says why d can no longer satisfy its dependents ("" while it may).
func depBlocks(d *Proc, c config.Condition) string {
	if d.intent.backoff || d.intent.restartPending {
		return ""
	}
	switch d.State {
	case failed:
		if d.Recoverable && d.running {
			return "" // it retries by itself
		}
		return "failed: " + d.Message
	case stopped:
		if !d.intent.wanted {
			return "is stopped"
		}
	case blocked:
		return "is blocked (" + d.Message + ")"
	}
	return ""
}

// exitOnFailure begins shutdown at the first failure when asked to.
func (m *Machine) exitOnFailure() {
	if !m.opts.ExitOnFailure || m.shuttingDown {
		return
	}
	for _, ps := range m.procsInOrder() {
		if ps.State == failed && !ps.Recoverable {
			name := ps.Cfg.Name
			m.firstFailure = name
			m.beginShutdown("exit on failure: " + name + " failed")
			return
		}
	}
}

// Settled reports whether nothing runs, nothing waits in backoff and
// nothing more can start (no schedule is armed): the engine's loop may end.
func (m *Machine) Settled() bool {
	if m.opts.UntilDown && !m.shuttingDown || len(m.scheduled) > 0 && !m.shuttingDown {
		return false
	}
	for _, ps := range m.procs {
		if ps.running || ps.intent.backoff {
			return false
		}
		if !m.shuttingDown && ps.intent.wanted && ps.State == pending {
			return false
		}
	}
	return !m.opts.StayUp || m.shuttingDown || m.allTasksCompleted()
}

// allTasksCompleted reports whether every process is a task that
// completed: nothing is left for a procs that stays up to do. Processes
// never started (disabled, or not named to procs up NAME...) do not count;
// one stopped by request does, since it may be started again.
func (m *Machine) allTasksCompleted() bool {
	for _, ps := range m.procs {
		if ps.State == completed || !ps.intent.wanted && ps.Run == 0 {
			continue
		}
		return false
	}
	return true
}

// startingMessage is what a run says while it starts: its command.
func startingMessage(ps *Proc) string {
	return "starting: " + ps.Cfg.Command.String()
}
