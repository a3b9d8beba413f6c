package lifecycle

import (
	"slices"

	"github.com/procsdev/procs/rules"
)

// Down begins the shutdown: everything stops, dependents before their
// dependencies; reason says why ("down", "interrupted"). A second Down
// kills every run at once.
func (m *Machine) Down(reason string) {
	defer m.settle()
	m.beginShutdown(reason)
}

func (m *Machine) beginShutdown(reason string) {
	if m.shuttingDown {
		m.killAll = true
		for _, name := range m.names() {
			if ps := m.procs[name]; ps.running {
				m.emit(StopRun{Name: name, Graceful: false})
			}
		}
		return
	}
	m.shuttingDown, m.endReason = true, reason
	for _, name := range m.names() {
		ps := m.procs[name]
		if m.cancelRestart(ps) || ps.State == pending || ps.State == blocked {
			m.setState(ps, stopped, rules.ReasonStopped, reason)
		}
	}
	m.advanceShutdown()
}

// advanceShutdown stops each running process whose dependents have all
// stopped: reverse dependency order, as far as it can go now.
func (m *Machine) advanceShutdown() {
	for i := len(m.order) - 1; i >= 0; i-- {
		ps := m.procs[m.order[i]]
		if !ps.running || ps.State == stopping {
			continue
		}
		if m.killAll || !m.hasRunningDependents(ps.Cfg.Name) {
			m.stopRun(ps, !m.killAll)
		}
	}
}

func (m *Machine) hasRunningDependents(name string) bool {
	for _, d := range m.dependents[name] {
		if ps := m.procs[d]; ps != nil && ps.running {
			return true
		}
	}
	return false
}

// Outcome says how the machine's processes ended.
type Outcome struct {
	// Failed lists processes that ended failed (not stopped by request).
	Failed []string
	// Ended says why shutdown began ("interrupted", "down", "exit on
	// failure: …"), empty when nothing was left to run.
	Ended string
	// AllEnded says every process ended by itself, not on Down.
	AllEnded bool
}

// Outcome summarises how the processes ended.
func (m *Machine) Outcome() Outcome {
	out := Outcome{Ended: m.endReason, AllEnded: !m.shuttingDown}
	for _, name := range m.order {
		if m.procs[name].State == failed {
			out.Failed = append(out.Failed, name)
		}
	}
	if m.firstFailure != "" && !slices.Contains(out.Failed, m.firstFailure) {
		// Stopped while failed: the failure is what ended the run.
		out.Failed = append(out.Failed, m.firstFailure)
	}
	return out
}
