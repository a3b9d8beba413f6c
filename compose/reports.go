package compose

import (
	"fmt"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// stableResetAfter is how long a run must stay ready for the restart policy
// to forget earlier crashes and start its backoff from the minimum again.
const stableResetAfter = 10 * time.Second

// handleReport applies a supervisor's report to the process state.
func (e *Engine) handleReport(r report) {
	ps := e.procs[r.name]
	if ps == nil || r.run != ps.run {
		return // a report of a run that has been replaced
	}
	switch r.kind {
	case reportStarted:
		ps.pid = r.pid
	case reportPorts:
		ps.ports = r.ports
	case reportVerdict:
		ps.screen = r.screen
		e.applyVerdict(ps, r.verdict)
	case reportExited:
		ps.screen, ps.lastScreen = r.screen, r.lastScreen
		e.handleExit(ps, r.verdict)
		if ps.removed && !ps.running() {
			e.forget(ps)
		}
	}
}

// applyVerdict moves a running process to the state detection found.
func (e *Engine) applyVerdict(ps *procState, v rules.Verdict) {
	if ps.state == rules.StateStopping {
		return // output while stopping says nothing about readiness
	}
	ps.line = v.Line
	if ps.interactive() && v.State == ps.state && v.Reason == ps.reason {
		// The prompt being typed into is not news: no event per keystroke.
		ps.message = v.Message
		return
	}
	switch v.State {
	case rules.StateReady:
		e.setState(ps, rules.StateReady, v.Reason, v.Message)
		e.afterReady(ps)
	case rules.StateFailed:
		ps.recoverable = v.Recoverable
		e.setState(ps, rules.StateFailed, v.Reason, v.Message)
		// An error on an agent's screen leaves it running and usable; only
		// its exit is for the restart policy.
		if !ps.interactive() && ps.running() && (e.policyRestarts(ps, v) || stopsWhenFailed(v)) {
			// The run is failed but alive (an autoreloader waiting for a fix
			// after an import error holds its port and memory): end it, so the
			// policy can start a new one.
			ps.failedStop = true
			e.publishInfo(ps, rules.ReasonStopping, "failed and still running: stopping it")
			ps.sup.stop(true)
		}
	case rules.StateStarting:
		if ps.state != rules.StateStarting {
			e.setState(ps, rules.StateStarting, v.Reason, v.Message)
		}
	default:
		e.setState(ps, v.State, v.Reason, v.Message)
	}
}

// afterReady restarts dependents that asked to follow this process's restarts.
func (e *Engine) afterReady(ps *procState) {
	if !ps.restartDependents {
		return
	}
	ps.restartDependents = false
	for _, name := range e.dependents[ps.cfg.Name] {
		d := e.procs[name]
		for _, dep := range d.cfg.DependsOn {
			if dep.Name == ps.cfg.Name && dep.Restart && (d.running() || d.state == rules.StateBlocked) {
				e.publishInfo(d, rules.ReasonRestart, fmt.Sprintf("restarting because %s restarted", ps.cfg.Name))
				e.requestRestart(d)
			}
		}
	}
}

// handleExit records the end of a run and decides what comes next: a
// requested restart, a policy restart after backoff, or a final state.
func (e *Engine) handleExit(ps *procState, v rules.Verdict) {
	// A run that never started a process (port in use, command not found,
	// stopped while waiting for its port) has no exit code.
	ps.exitCode = nil
	if ps.pid != 0 {
		code := v.ExitCode
		ps.exitCode = &code
	}
	ps.sup, ps.pid = nil, 0
	ps.line = v.Line
	stable := !ps.readyAt.IsZero() && ps.readyAt.After(ps.startedAt) && time.Since(ps.readyAt) >= stableResetAfter
	if stable {
		ps.restarts = 0
	}
	switch {
	case ps.restartPending && !e.shuttingDown:
		ps.restartPending = false
		ps.restartDependents, ps.noDeps = !ps.noDeps, false
		ps.totalRestarts++
		e.setState(ps, rules.StatePending, rules.ReasonRestart, "restarting")
	case !ps.wanted || e.shuttingDown:
		e.setState(ps, rules.StateStopped, rules.ReasonStopped, stoppedMessage(v))
	case ps.state == rules.StateFailed && v.State != rules.StateFailed:
		// Failed while running (error line, timeout) and then ended: keep the
		// failure that explains it, unless the policy brings it back.
		if ps.failedStop {
			how := strings.TrimSuffix(strings.TrimPrefix(v.Message, "stopped on request ("), ")")
			e.setState(ps, rules.StateFailed, ps.reason, ps.message+"; procs stopped it ("+how+")")
		}
		e.maybeRestart(ps, v)
	default:
		e.setState(ps, v.State, v.Reason, v.Message)
		e.maybeRestart(ps, v)
	}
}

// stopsWhenFailed says whether a run failed with v is stopped even when no
// restart policy brings it back: a failure it printed (an error line). A
// readiness timeout leaves it running (design §4): it may still come up.
func stopsWhenFailed(v rules.Verdict) bool {
	return v.Reason == rules.ReasonError && !v.Recoverable
}

func stoppedMessage(v rules.Verdict) string {
	if v.State == rules.StateStopped {
		return v.Message // already says "stopped on request (...)"
	}
	if v.Message != "" {
		return "stopped (" + v.Message + ")"
	}
	return "stopped"
}

// policyRestarts says whether the restart policy will bring ps back after v.
func (e *Engine) policyRestarts(ps *procState, v rules.Verdict) bool {
	if e.shuttingDown || !ps.wanted {
		return false
	}
	r := ps.cfg.Restart
	switch r.Policy {
	case config.RestartAlways:
	case config.RestartOnFailure:
		if v.State != rules.StateFailed && ps.state != rules.StateFailed {
			return false
		}
	default:
		return false
	}
	return r.MaxRestarts == 0 || ps.restarts < r.MaxRestarts
}

// maybeRestart applies the restart policy after a run ended by itself.
func (e *Engine) maybeRestart(ps *procState, v rules.Verdict) {
	if !e.policyRestarts(ps, v) {
		if r := ps.cfg.Restart; r.MaxRestarts > 0 && ps.restarts >= r.MaxRestarts && r.Policy != config.RestartNo {
			e.publishInfo(ps, rules.ReasonGaveUp, fmt.Sprintf("not restarting: %d restarts reached maxRestarts", ps.restarts))
		}
		return
	}
	delay := backoffDelay(ps.cfg.Restart.Backoff, ps.restarts)
	ps.restarts++
	ps.totalRestarts++
	e.setState(ps, rules.StateBackoff, rules.ReasonBackoff, fmt.Sprintf("restart %d in %s (%s)", ps.restarts, delay, v.Message))
	ps.backoffGen++
	gen := ps.backoffGen
	ps.backoff = time.AfterFunc(delay, func() { e.post(func() { e.backoffFired(ps, gen) }) })
}

// backoffFired ends backoff gen of ps. A timer whose callback was already
// queued when a restart request stopped it carries an older gen: it must
// neither clear a newer timer nor start the next run early.
func (e *Engine) backoffFired(ps *procState, gen int) {
	if gen != ps.backoffGen {
		return
	}
	ps.backoff = nil
	if ps.wanted && !e.shuttingDown && ps.state == rules.StateBackoff {
		e.setState(ps, rules.StatePending, rules.ReasonRestart, "restarting after backoff")
	}
}

// backoffDelay is min·2^n, capped at max (defaults 500ms..30s).
func backoffDelay(b config.BackoffRange, n int) time.Duration {
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

func (e *Engine) publishInfo(ps *procState, reason rules.Reason, message string) {
	e.bus.Publish(Event{Type: EventInfo, Time: time.Now(), Proc: ps.cfg.Name, Run: ps.run, Reason: reason, Message: message})
}
