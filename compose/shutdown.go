package compose

import "github.com/procsdev/procs/rules"

// Why shutdown began, as Outcome.Ended tells it.
const (
	// EndDown is shutdown asked for by Down (procs down).
	EndDown = "down"
	// EndInterrupted is shutdown after Ctrl-C or SIGTERM (Interrupt).
	EndInterrupted = "interrupted"
)

// Interrupt is Down after Ctrl-C or a signal: the outcome says interrupted.
// A second one kills what is still running.
func (e *Engine) Interrupt() error {
	return e.do(func() { e.beginShutdown(EndInterrupted) })
}

// beginShutdown stops everything, dependents before their dependencies.
// A second call kills every process at once.
func (e *Engine) beginShutdown(reason string) {
	if e.shuttingDown {
		e.killAll = true
		for _, ps := range e.procs {
			if ps.running() {
				ps.sup.stop(false)
			}
		}
		return
	}
	e.shuttingDown, e.endReason = true, reason
	for _, ps := range e.procs {
		ps.wanted = false
		ps.restartPending = false
		if ps.backoff != nil {
			ps.backoff.Stop()
			ps.backoff = nil
			e.setState(ps, rules.StateStopped, rules.ReasonStopped, reason)
		}
		if ps.state == rules.StatePending || ps.state == rules.StateBlocked {
			e.setState(ps, rules.StateStopped, rules.ReasonStopped, reason)
		}
	}
	e.advanceShutdown()
}

// advanceShutdown stops each running process whose dependents have all
// stopped: reverse dependency order, as far as it can go now.
func (e *Engine) advanceShutdown() {
	for i := len(e.order) - 1; i >= 0; i-- {
		ps := e.procs[e.order[i]]
		if !ps.running() || ps.state == rules.StateStopping {
			continue
		}
		if e.killAll || !e.hasRunningDependents(ps.cfg.Name) {
			e.stopRun(ps, !e.killAll)
		}
	}
}

func (e *Engine) hasRunningDependents(name string) bool {
	for _, d := range e.dependents[name] {
		if e.procs[d].running() {
			return true
		}
	}
	return false
}

// stopRun asks the current run of ps to end.
func (e *Engine) stopRun(ps *procState, graceful bool) {
	e.setState(ps, rules.StateStopping, rules.ReasonStop, "stopping")
	ps.sup.stop(graceful)
}
