package lifecycle

import (
	"slices"
	"time"

	"github.com/procsdev/procs/rules"
)

// waiter is a wait for a process to reach one of its target states.
type waiter struct {
	id      int
	name    string
	targets []rules.State
	minRun  int
}

// Wait registers wait id for process name to reach one of targets in run
// minRun or later. It is answered (an Answer effect) exactly once: when
// the process gets there, when it cannot any more, when it is removed
// (once its last run has ended), when the wait is given up, or when the
// machine closes. A process removed from the config is unknown, but for a
// wait for it to be stopped while its last run ends.
func (m *Machine) Wait(id int, name string, targets []rules.State, minRun int) error {
	defer m.settle()
	ps, err := m.Lookup(name)
	if err != nil && isStoppedOnly(targets) {
		if removed := m.procs[name]; removed != nil {
			ps, err = removed, nil // removed, its last run still ending: that end can be waited for
		} else if last, ok := m.ended[name]; ok && last.Run >= minRun {
			m.answer(&waiter{id: id, name: name, targets: targets, minRun: minRun}, &last, true, "")
			return nil
		}
	}
	if err != nil {
		return err
	}
	if minRun == 0 && ps.State == backoff && ps.intent.backoff {
		// A wait for no particular run: the failure that put the process
		// in backoff is its last run's, and its policy starts the next,
		// which may be fixed. That one is waited for.
		minRun = ps.Run + 1
	}
	m.waiters = append(m.waiters, &waiter{id: id, name: name, targets: targets, minRun: minRun})
	return nil
}

// isStoppedOnly says a wait's targets are "stopped" alone: the one wait a
// process removed from the config can still have (its run's end).
func isStoppedOnly(targets []rules.State) bool {
	return len(targets) > 0 && !slices.ContainsFunc(targets, func(s rules.State) bool { return s != stopped })
}

// GiveUp ends wait id before its outcome (its caller timed out or left),
// answering it with the process as it is now. It reports false when the
// wait was answered already: that answer stands.
func (m *Machine) GiveUp(id int, note string) bool {
	i := slices.IndexFunc(m.waiters, func(w *waiter) bool { return w.id == id })
	if i < 0 {
		return false
	}
	w := m.waiters[i]
	m.waiters = slices.Delete(m.waiters, i, i+1)
	m.answer(w, m.procs[w.name], false, note)
	return true
}

// Waiting counts the waits on a process not answered yet.
func (m *Machine) Waiting(name string) int {
	n := 0
	for _, w := range m.waiters {
		if w.name == name {
			n++
		}
	}
	return n
}

func (m *Machine) answer(w *waiter, ps *Proc, success bool, note string) {
	snapshot := *ps
	snapshot.Ports = slices.Clone(ps.Ports)
	m.emit(Answer{Waiter: w.id, Proc: snapshot, Success: success, Note: note})
}

// resolveWaiters answers every wait whose process reached a target state
// or a state from which the target cannot be reached.
func (m *Machine) resolveWaiters() {
	m.waiters = slices.DeleteFunc(m.waiters, func(w *waiter) bool {
		ps := m.procs[w.name]
		success, over := m.waitOutcome(ps, w)
		if over {
			note := ""
			if ps.Run < w.minRun {
				note = ps.intent.restartHeld
			}
			m.answer(w, ps, success, note)
		}
		return over
	})
}

// waitOutcome says whether the wait is over and whether it succeeded.
func (m *Machine) waitOutcome(ps *Proc, w *waiter) (success, over bool) {
	if ps.Run >= w.minRun && slices.Contains(w.targets, ps.State) {
		return true, true
	}
	if ps.Run >= w.minRun && ps.State == completed && !ps.running && !ps.intent.wanted && slices.Contains(w.targets, stopped) {
		// A task that completed and was then asked to stop (Stop keeps its
		// state) has no run going and none to come: the stop is done.
		return true, true
	}
	if ps.Run < w.minRun {
		// The awaited run has not started: over only if it never will.
		over = !ps.intent.wanted && !ps.running || ps.State == blocked || m.shuttingDown || ps.intent.restartHeld != ""
		return false, over
	}
	if ps.State == failed && ps.Recoverable && ps.running {
		return false, false // it retries by itself: keep waiting
	}
	switch ps.State {
	case failed, blocked, stopped, completed, backoff:
		return false, true
	}
	return false, m.shuttingDown && !ps.running
}

// forget drops a removed process whose run has ended, answering its waits:
// a wait for it to stop has its answer; any other never will.
func (m *Machine) forget(ps *Proc) {
	name := ps.Cfg.Name
	m.waiters = slices.DeleteFunc(m.waiters, func(w *waiter) bool {
		if w.name != name {
			return false
		}
		if success, _ := m.waitOutcome(ps, w); success {
			m.answer(w, ps, true, "")
		} else {
			m.answer(w, ps, false, "removed from the config")
		}
		return true
	})
	m.ended[name] = *ps
	delete(m.procs, name)
	m.inOrder = nil
	delete(m.scheduled, name)
	m.emit(Forget{Name: name})
}

// Close answers every wait left: procs has stopped.
func (m *Machine) Close() {
	for _, w := range m.waiters {
		m.answer(w, m.procs[w.name], false, "procs stopped")
	}
	m.waiters = nil
}

// Elapsed is the time since t by the machine's clock.
func (m *Machine) Elapsed(t time.Time) time.Duration { return m.now().Sub(t) }
