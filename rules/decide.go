package rules

import (
	"slices"
	"time"
)

// decide moves between starting and ready after an event.
func (d *Detector) decide(now time.Time, line string) {
	if d.notReadyLine != "" {
		d.set(Verdict{State: StateStarting, Reason: ReasonNotReady, Line: d.notReadyLine,
			Message: "waiting at prompt " + quote(d.notReadyLine)})
		return
	}
	if d.ready {
		return
	}
	if d.launching && now.Before(d.readySince.Add(launcherMax)) {
		d.set(startingVerdict)
		return
	}
	if !d.condition(now, line) {
		d.readySince = time.Time{}
		d.set(startingVerdict)
		return
	}
	if d.readySince.IsZero() {
		d.readySince = now
	}
	if now.Sub(d.readySince) < d.settle() || d.settling(now) {
		d.set(startingVerdict)
		return
	}
	d.ready = true
	d.serving = slices.Clone(d.ports)
	d.set(Verdict{State: StateReady, Reason: ReasonReady, Message: d.readyMessage(), Line: d.readyLine})
}

// pastTimeout reports whether the run failed by its readiness timeout and
// goes on: the design keeps it running, since it may still come up.
func (d *Detector) pastTimeout() bool {
	return d.failed && d.verdict.Reason == ReasonTimeout && !d.exited
}

// decideAfterTimeout is decide for a run past its readiness timeout: its
// ready condition, once it holds (for the stability delay), makes it
// ready; until then the timeout's verdict stands, not "starting".
func (d *Detector) decideAfterTimeout(now time.Time, line string) {
	timeout := d.verdict
	d.failed = false
	d.decide(now, line)
	if !d.ready {
		d.failed, d.verdict = true, timeout
	}
}

// checkTimeout fails the run once the readiness timeout has passed, unless
// the ready condition already holds and only the stability delay remains;
// with no timeout but AssumeReadyAfter, it assumes the run ready instead,
// unless its ready line names a port its tree does not listen on.
func (d *Detector) checkTimeout(now time.Time) {
	if d.failed || d.failing != nil || d.ready || d.up || !d.readySince.IsZero() {
		return
	}
	switch timeout, assume := d.spec.ReadyTimeout, d.spec.AssumeReadyAfter; {
	case timeout > 0 && !now.Before(d.started.Add(timeout)):
		d.fail(ReasonTimeout, d.timeoutMessage(timeout), "")
	case timeout <= 0 && assume > 0 && !now.Before(d.assumeAt()) && d.readyLine != "" && !d.lineAgreesWithPorts():
		// Its ready line names a port its tree does not listen on (a bind
		// that failed): a server that is not serving, not a worker to
		// assume ready. It fails as a timeout does, and a port opened at
		// last still makes it ready.
		d.fail(ReasonTimeout, d.timeoutMessage(now.Sub(d.started).Round(100*time.Millisecond)), "")
	case timeout <= 0 && assume > 0 && !now.Before(d.assumeAt()):
		d.ready = true
		d.set(Verdict{State: StateReady, Reason: ReasonAssumed, Message: d.assumedMessage(now)})
	}
}

func (d *Detector) handleExit(e Exit) {
	if d.failing != nil {
		d.decideFailure()
	}
	d.exited = true
	v := classifyExit(e, d.spec.Task)
	if d.spec.Interactive && !d.spec.Task {
		v = classifyExitInteractive(e, d.leftByCommand())
	}
	if d.agent != nil {
		if v.State == StateFailed && v.Reason != ReasonDaemonized {
			v.Message, v.Line = d.crashMessage(v.Message)
		}
		d.verdict = d.agentExit(v, e)
		return
	}
	switch {
	case (d.failed || d.verdict.State == StateUnhealthy) && v.State != StateStopped && v.State != StateCompleted:
		// The error line (or the timeout) says more than the exit code.
		v.Reason, v.Line = d.verdict.Reason, d.verdict.Line
		v.Message = d.verdict.Message + "; then " + e.describeCode()
	case v.State == StateFailed && v.Reason != ReasonDaemonized:
		v.Message, v.Line = d.crashMessage(v.Message)
	}
	d.verdict = v
}

func (d *Detector) fail(reason Reason, message, line string) {
	d.failed = true
	d.verdict = Verdict{State: StateFailed, Reason: reason, Message: message, Line: line}
}

// set replaces the verdict only when it changes, so the hot path of lines
// that change nothing copies no strings.
func (d *Detector) set(v Verdict) {
	if v.State == d.verdict.State && v.Reason == d.verdict.Reason && v.Line == d.verdict.Line {
		return
	}
	d.verdict = v
}
