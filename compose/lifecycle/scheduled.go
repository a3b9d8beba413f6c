package lifecycle

import "github.com/procsdev/procs/rules"

// The machine's part in scheduled tasks (schedule: in procs.yaml). The
// engine owns their timers and starts a due run with Start, as procs start
// does; the machine only knows which schedules are armed, so that a procs
// that stays up waits for them, and so that a task that has not run yet
// reads as scheduled rather than "not started".

// Scheduled tells the machine that the schedule of a process is armed
// (when says when it runs: "every 30m") or, with armed false, no longer is.
func (m *Machine) Scheduled(name, when string, armed bool) {
	ps := m.procs[name]
	if ps == nil {
		return
	}
	if armed {
		m.scheduled[name] = true
	} else {
		delete(m.scheduled, name)
	}
	if ps.Run > 0 || ps.intent.wanted || ps.State != stopped {
		return // it has run, or runs: its state says how that went
	}
	switch {
	case armed && (ps.Reason == rules.ReasonNotStarted || ps.Reason == rules.ReasonScheduled || ps.Reason == rules.ReasonProfile):
		// Armed, its profile is active: one activated on the running
		// procs (procs up --profile) left it stopped for its profile.
		// "scheduled: every 30m": the printer shows the message alone.
		m.setState(ps, stopped, rules.ReasonScheduled, string(rules.ReasonScheduled)+": "+when)
	case !armed && ps.Reason == rules.ReasonScheduled:
		m.setState(ps, stopped, rules.ReasonNotStarted, "")
	}
}

// Busy reports whether a process has a run under way, in any of its
// steps: waiting for its dependencies, running, stopping, or waiting in
// backoff to run again. A scheduled time that comes then is skipped.
func (p *Proc) Busy() bool {
	switch {
	case p.running, p.intent.backoff, p.intent.restartPending:
		return true
	}
	return p.intent.wanted && (p.State == pending || p.State == blocked)
}
