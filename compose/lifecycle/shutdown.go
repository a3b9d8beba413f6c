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
		for _, name := range m.Names() {
			if ps := m.procs[name]; ps.running {
				m.emit(StopRun{Name: name, Graceful: false})
			}
		}
		return
	}
	m.shuttingDown, m.endReason = true, reason
	for _, name := range m.Names() {
		ps := m.procs[name]
		if m.cancelRestart(ps) || ps.State == pending || ps.State == blocked {
			m.setState(ps, stopped, rules.ReasonStopped, reason)
		}
	}
	m.advanceShutdown()
}

// advanceShutdown stops each running process whose dependents have all
// stopped: reverse dependency order, as far as it can go now.
//
// It runs on every event of a shutdown, so it walks a queue of the
// processes still running, with their dependents at hand, not the whole
// config through its maps: two hundred processes made that forty thousand
// map lookups on the engine loop. A process leaves the queue once its run
// has ended: none starts during a shutdown (schedule).
func (m *Machine) advanceShutdown() {
	if m.stopQueue == nil {
		m.stopQueue = m.newStopQueue()
	}
	kept := m.stopQueue[:0]
	for _, e := range m.stopQueue {
		if !e.proc.running {
			continue
		}
		kept = append(kept, e)
		if e.proc.State != stopping && (m.killAll || !anyRunning(e.dependents)) {
			m.stopRun(e.proc, !m.killAll, "stopping")
		}
	}
	clear(m.stopQueue[len(kept):])
	m.stopQueue = kept
}

// stopEntry is a process of the shutdown's queue and its dependents.
type stopEntry struct {
	proc       *Proc
	dependents []*Proc
}

// newStopQueue lists the running processes in reverse start order.
func (m *Machine) newStopQueue() []stopEntry {
	queue := make([]stopEntry, 0, len(m.order))
	for i := len(m.order) - 1; i >= 0; i-- {
		ps := m.procs[m.order[i]]
		if !ps.running {
			continue
		}
		e := stopEntry{proc: ps}
		for _, d := range m.dependents[ps.Cfg.Name] {
			if dp := m.procs[d]; dp != nil {
				e.dependents = append(e.dependents, dp)
			}
		}
		queue = append(queue, e)
	}
	return queue
}

// Stopping counts the runs a shutdown is still waiting for.
func (m *Machine) Stopping() int {
	n := 0
	for _, ps := range m.procs {
		if ps.running {
			n++
		}
	}
	return n
}

func anyRunning(procs []*Proc) bool {
	for _, ps := range procs {
		if ps.running {
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
