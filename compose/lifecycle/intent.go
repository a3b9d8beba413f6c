package lifecycle

import (
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// intent is what procs means to do with a process beyond its state: keep
// it running, restart it once its run has ended, bring its dependents
// along, restart it by its policy after a delay. Only the methods in this
// file write it.
type intent struct {
	// wanted says the process should be running (false once stopped by
	// request, disabled, or removed).
	wanted bool
	// restartPending starts a new run as soon as the current one has exited.
	restartPending bool
	// restartAwaitsDeps holds the restart of a running process until the
	// dependencies of its new run are met: the run serving now is stopped
	// only then, as docker compose up recreates a service once its
	// dependencies are healthy, and serves on if one of them fails.
	restartAwaitsDeps bool
	// restartHeld says why a restart that awaits its dependencies cannot
	// go on now (one failed): a wait for its new run ends with it, while
	// the run serves on and the restart waits for the dependency to be
	// back. Cleared when a run starts or another restart is asked for.
	restartHeld string
	// restartDependents restarts the dependents declaring restart: true
	// once this run is ready.
	restartDependents bool
	// noDeps keeps the pending restart from restarting those dependents.
	noDeps bool
	// removed marks a process no longer in the config: it is forgotten
	// once its run has ended.
	removed bool
	// awaitsRemoved marks a process a reconcile added that has not run
	// yet: it may replace a process removed from the config (a rename,
	// the same port), so it starts only once no removed process is still
	// ending. A process that was there before, and every later run of
	// this one, starts without waiting for them.
	awaitsRemoved bool
	// restarts counts consecutive restarts by the restart policy.
	restarts int
	// backoff says the policy's timer is armed; backoffGen numbers the
	// timers, so a callback of an older one is stale.
	backoff    bool
	backoffGen int
	// failedStop says procs is stopping the current run because it failed.
	failedStop bool
}

// restartAsked is a restart asked for by name (procs restart): noDeps
// says whether its restart: true dependents stay as they are.
func (m *Machine) restartAsked(ps *Proc, noDeps bool) int {
	ps.intent.noDeps = noDeps
	return m.requestRestart(ps)
}

// requestRestart restarts ps (now, or once its run has ended) and returns
// the run that will follow. Concurrent restarts coalesce into one.
func (m *Machine) requestRestart(ps *Proc) int {
	in := &ps.intent
	in.wanted, in.restartHeld = true, ""
	if in.restartPending || in.restartAwaitsDeps {
		return ps.Run + 1 // coalesce with the restart already under way
	}
	m.cancelBackoff(ps)
	in.restarts = 0
	if ps.running {
		if ok, _ := m.depsSatisfied(ps); !ok && ps.State != stopping {
			in.restartAwaitsDeps = true
			m.info(ps, rules.ReasonWaiting, "restart waits for its dependencies: this run serves until they are ready")
			return ps.Run + 1
		}
		m.restartRunNow(ps)
		return ps.Run + 1
	}
	in.restartDependents, in.noDeps = ps.Run > 0 && !in.noDeps, false
	m.setState(ps, pending, rules.ReasonRestart, "restart requested")
	return ps.Run + 1
}

// restartRunNow stops the run of ps, to start a new one once it has
// exited.
func (m *Machine) restartRunNow(ps *Proc) {
	ps.intent.restartAwaitsDeps = false
	ps.intent.restartPending = true
	m.stopRun(ps, true, "stopping")
}

// advanceAwaitedRestarts goes on with each restart that waits for the
// dependencies of its new run: once they are met it stops the run; while
// one of them cannot be (failed, stopped), it holds the restart, and the
// run serves on.
func (m *Machine) advanceAwaitedRestarts() {
	for _, ps := range m.procsInOrder() {
		if !ps.intent.restartAwaitsDeps {
			continue
		}
		switch ok, why := m.depsSatisfied(ps); {
		case ok:
			m.restartRunNow(ps)
		case why != "" && ps.intent.restartHeld == "":
			m.holdRestart(ps, why)
		case why == "":
			ps.intent.restartHeld = "" // the dependency is coming back
		}
	}
}

// holdRestart says that the restart of ps cannot go on now: a dependency
// of its new run cannot be met (why). The run serving now serves on, the
// restart goes on once the dependency is back, and a wait for the new run
// ends now, saying so (waitOutcome): a reload --wait is not held for a
// fix it cannot make.
func (m *Machine) holdRestart(ps *Proc, why string) {
	ps.intent.restartHeld = "not restarted: " + why + ", so its new run could not start; it runs on as it is, and restarts once its dependencies are ready"
	m.info(ps, rules.ReasonDependency, ps.intent.restartHeld)
}

// cancelRestart keeps ps from running again: not wanted, no restart
// pending, no backoff timer. It reports whether a backoff was cancelled.
// Stop, removal, disabling and shutdown all begin with it.
func (m *Machine) cancelRestart(ps *Proc) (hadBackoff bool) {
	in := &ps.intent
	in.wanted, in.restartPending, in.restartAwaitsDeps, in.restartHeld = false, false, false, ""
	return m.cancelBackoff(ps)
}

// stopForGood stops ps and keeps it stopped: its run is stopped
// gracefully, or, with none, it is stopped at once, saying why.
func (m *Machine) stopForGood(ps *Proc, why string) {
	m.cancelRestart(ps)
	switch {
	case ps.running && ps.State != stopping:
		// Its run may take its stop timeout: status says why it stops.
		m.stopRun(ps, true, why)
	case !ps.running:
		m.setState(ps, stopped, rules.ReasonStopped, why)
	}
}

// stopRun asks the current run of ps to end, saying why.
func (m *Machine) stopRun(ps *Proc, graceful bool, why string) {
	m.setState(ps, stopping, rules.ReasonStop, why)
	m.emit(StopRun{Name: ps.Cfg.Name, Graceful: graceful})
}

// stopFailedRun ends a run that failed and is still alive (an autoreloader
// waiting for a fix holds its port and memory), so its policy can start a
// new one; its state stays failed.
func (m *Machine) stopFailedRun(ps *Proc) {
	ps.intent.failedStop = true
	m.info(ps, rules.ReasonStopping, "failed and still running: stopping it")
	m.emit(StopRun{Name: ps.Cfg.Name, Graceful: true})
}

// want makes ps wanted again (start, up).
func (m *Machine) want(ps *Proc) { ps.intent.wanted = true }

// added marks ps as added by a reconcile: its first run waits for the
// processes removed from the config to end.
func (m *Machine) added(ps *Proc) { ps.intent.awaitsRemoved = true }

// remove marks ps as removed from the config and stops it for good.
func (m *Machine) remove(ps *Proc) {
	ps.intent.removed = true
	m.stopForGood(ps, "removed from "+m.file)
}

// armBackoff starts the policy's timer of ps.
func (m *Machine) armBackoff(ps *Proc, delay time.Duration) {
	in := &ps.intent
	in.backoff = true
	in.backoffGen++
	m.emit(ArmBackoff{Name: ps.Cfg.Name, Gen: in.backoffGen, Delay: delay})
}

// cancelBackoff stops the policy's timer of ps, if armed.
func (m *Machine) cancelBackoff(ps *Proc) bool {
	if !ps.intent.backoff {
		return false
	}
	ps.intent.backoff = false
	m.emit(CancelBackoff{Name: ps.Cfg.Name})
	return true
}

// runBegins records the intent of a run that starts now.
func (m *Machine) runBegins(ps *Proc) {
	ps.intent.failedStop, ps.intent.restartHeld, ps.intent.awaitsRemoved = false, "", false
}

// runEnded takes what the end of a run settles of the intent: a pending
// restart (returned, with whether dependents follow), and the policy's
// count of failures in a row, which a run that endsRow resets.
func (m *Machine) runEnded(ps *Proc, endsRow bool) (restart bool) {
	in := &ps.intent
	if endsRow {
		in.restarts = 0
	}
	if in.restartAwaitsDeps {
		// Ended before its dependencies were met: the restart stands,
		// and its new run waits for them as any start does.
		in.restartAwaitsDeps, in.restartPending = false, true
	}
	if !in.restartPending || m.shuttingDown {
		return false
	}
	in.restartPending = false
	in.restartDependents, in.noDeps = !in.noDeps, false
	ps.TotalRestarts++
	return true
}

// policyRestarts says whether the restart policy will bring ps back after
// a run whose verdict is v.
func (m *Machine) policyRestarts(ps *Proc, v rules.Verdict) bool {
	if m.shuttingDown || !ps.intent.wanted {
		return false
	}
	r := ps.Cfg.Restart
	switch r.Policy {
	case config.RestartAlways:
	case config.RestartOnFailure:
		if v.State != failed && ps.State != failed {
			return false
		}
	default:
		return false
	}
	return r.MaxRestarts == 0 || ps.intent.restarts < r.MaxRestarts
}

// policyRestart counts one more restart by the policy and returns its delay.
func (m *Machine) policyRestart(ps *Proc) time.Duration {
	delay := BackoffDelay(ps.Cfg.Restart.Backoff, ps.intent.restarts)
	ps.intent.restarts++
	ps.TotalRestarts++
	return delay
}

// takeRestartDependents reports, once, whether the dependents declaring
// restart: true follow this run now that it is ready.
func (m *Machine) takeRestartDependents(ps *Proc) bool {
	if !ps.intent.restartDependents {
		return false
	}
	ps.intent.restartDependents = false
	return true
}

// BackoffDelay is min·2^n, capped at max (defaults 500ms..30s).
func BackoffDelay(b config.BackoffRange, n int) time.Duration {
	lo, hi := b.Min, b.Max
	if lo <= 0 {
		lo = 500 * time.Millisecond
	}
	if hi <= 0 {
		hi = 30 * time.Second
	}
	d := lo
	for i := 0; i < n && d < hi; i++ {
		d *= 2
	}
	return min(d, hi)
}
