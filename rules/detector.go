package rules

import (
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/vm"
)

// Spec is what a process's config says about detecting its readiness and
// failure. It is built once at config load and shared by every run.
type Spec struct {
	ReadyPatterns, ErrorPatterns, NotReadyPatterns []Pattern
	// Rule is the compiled `ready` expression; nil when none.
	Rule *Rule
	// Port is the configured port; 0 when none.
	Port int
	// ReadyTimeout fails a run not ready in time; 0 means wait forever.
	ReadyTimeout time.Duration
	// StabilityDelay is how long the ready condition must hold without an
	// error line before the run is ready; 0 means at once.
	StabilityDelay time.Duration
	// Task marks a one-shot process: exit 0 is completed, not a failure.
	Task bool
	// ReadyOnListen makes a TCP port the process tree listens on count as
	// ready, as a ready line does: for servers that print nothing when
	// ready, and runtimes whose servers may not say so.
	ReadyOnListen bool
	// ReadyLinePort makes a ready line that names a URL with a port (a
	// preset's "Uvicorn running on http://127.0.0.1:8000") wait for the
	// process tree to listen on that port: some servers say so before
	// their worker accepts. A configured Port is waited for in any case.
	ReadyLinePort bool
	// AssumeReadyAfter, when set and ReadyTimeout is not, makes a run still
	// starting after it, without an error, ready with reason "assumed": for
	// generic runtimes (go run, node app.js) that may run a worker, which
	// never listens nor says it is ready.
	AssumeReadyAfter time.Duration
	// PortInUse answers the rule's portOpen(n); nil means the PortInUse of
	// this package (reads /proc). Tests replace it to stay pure.
	PortInUse func(port int) bool
	// Interactive marks a program driven through its terminal (an agent
	// CLI, a shell, a REPL): with a screen attached, its state comes from
	// the screen (classifyScreen), not from the lines.
	Interactive bool
	// Agent holds the interactive patterns beyond ready/error/not-ready.
	Agent AgentSpec
}

// Detector decides the state of one run of one process from its events.
// It is created per run, so nothing of an earlier run can satisfy a later
// one. It is not safe for concurrent use: the goroutine that owns the run
// feeds it.
type Detector struct {
	spec    *Spec
	run     int
	started time.Time
	verdict Verdict

	exited bool // after the exit nothing changes the verdict
	failed bool // error line or timeout: kept until the exit
	ready  bool // reached; kept unless a not-ready line arrives
	// readySince is when the ready condition began to hold, zero while it
	// does not; the run is ready once it has held for StabilityDelay.
	readySince time.Time
	readyLine  string // the ready line since the last not-ready line
	// readyPort is the port of the first URL in a ready line, 0 when none.
	readyPort    int
	notReadyLine string // a prompt blocking startup, "" when none
	// lastStderr is the last line written to stderr, where programs say
	// why they fail; a crash message quotes it (or else the last line).
	lastStderr string
	// recent are the last non-blank lines, for the cause of a failure;
	// failing is the failure being collected, nil when none.
	recent  []string
	failing *failure
	// launching is set while the main process is a version manager's shim;
	// busy while the tree is running on a CPU (EventExec).
	launching, busy bool

	ports      []int
	portOpen   bool
	httpStatus int
	execOK     bool
	deps       map[string]string
	log        logTracker

	// screen is the terminal of a PTY run; nil for pipes.
	screen *Screen
	// up is set once an interactive run has been ready, busy or awaiting.
	up bool
	// inputSent is input with Enter not yet answered; inputWritten is when
	// it reached the program (zero while in flight); lastOutput is when the
	// newest output was read.
	inputSent    bool
	inputText    string
	inputScreen  string // the screen the input was sent to
	inputWritten time.Time
	lastOutput   time.Time
	live         liveScreen

	env     Env
	machine vm.VM
	ruleErr error
}

// NewDetector returns the detector for run number run, started at started.
// When the ready condition already holds at start (a service with nothing
// to wait for), the detector stays starting and asks, through Deadline, for
// a timer at started+StabilityDelay, so the change to ready is reported by
// Handle like any other.
func NewDetector(spec *Spec, run int, started time.Time) *Detector {
	if spec == nil {
		spec = &Spec{}
	}
	d := &Detector{
		spec: spec, run: run, started: started,
		verdict: startingVerdict,
		log:     newLogTracker(spec.Rule),
	}
	d.bindEnv()
	if d.condition(started, "") {
		d.readySince = started
	}
	return d
}

var startingVerdict = Verdict{State: StateStarting, Reason: "starting", Message: "starting"}

// Handle feeds one event and returns the verdict after it; changed is true
// when the state or reason differs from the previous verdict.
func (d *Detector) Handle(ev Event) (v Verdict, changed bool) {
	if d.exited {
		return d.verdict, false
	}
	prev := d.verdict
	switch ev.Kind {
	case EventExit:
		d.handleExit(ev.Exit)
	default:
		// A late event still sees the timeout it arrived after.
		d.checkFailure(ev.Time)
		d.checkTimeout(ev.Time)
		line := d.absorb(ev)
		switch {
		case d.interactive():
			d.decideInteractive(ev)
		case !d.failed && d.failing == nil:
			d.decide(ev.Time, line)
		}
	}
	changed = d.verdict.State != prev.State || d.verdict.Reason != prev.Reason || d.takeFresh()
	return d.verdict, changed
}

// AttachScreen gives the detector the screen of a PTY run, for the rule's
// screen.* and, for interactive programs, for classifying the run. The
// owner of the run feeds the screen and then sends EventScreen.
func (d *Detector) AttachScreen(s *Screen) {
	d.screen = s
	if d.interactive() {
		// The screen decides; nothing holds at start.
		d.readySince = time.Time{}
	}
}

// interactive reports whether the run is classified by its screen.
func (d *Detector) interactive() bool { return d.spec.Interactive && d.screen != nil }

// Verdict returns the current verdict.
func (d *Detector) Verdict() Verdict { return d.verdict }

// Ports returns the ports the process tree was last seen listening on.
func (d *Detector) Ports() []int { return slices.Clone(d.ports) }

// Deadline returns when the engine must deliver the next EventTimer: the end
// of the stability delay or the readiness timeout. false when none is due.
func (d *Detector) Deadline() (time.Time, bool) {
	if d.interactive() && !d.exited {
		if at, ok := d.inputDeadline(); ok {
			return at, true
		}
	}
	if d.failing != nil && !d.exited {
		return d.failing.due(), true
	}
	if d.exited || d.failed || d.ready || d.up {
		return time.Time{}, false
	}
	// Until the program is chosen and idle (a new EventExec), or the cap.
	if d.launching && !d.readySince.IsZero() {
		return d.readySince.Add(launcherMax), true
	}
	if d.busy && d.spec.ReadyByRunning() && !d.readySince.IsZero() {
		return d.readySince.Add(max(busyMax, d.spec.Settle())), true
	}
	if !d.readySince.IsZero() {
		return d.readySince.Add(d.spec.Settle()), true
	}
	if d.spec.ReadyTimeout > 0 {
		return d.started.Add(d.spec.ReadyTimeout), true
	}
	if d.spec.AssumeReadyAfter > 0 {
		return d.started.Add(d.spec.AssumeReadyAfter), true
	}
	return time.Time{}, false
}

// absorb records what ev says and returns the stripped line of a line event.
func (d *Detector) absorb(ev Event) string {
	switch ev.Kind {
	case EventLine:
		return d.absorbLine(ev.Line, ev.Time)
	case EventScreen:
		return d.absorbCursorRow(ev.Time)
	case EventPorts:
		d.ports = slices.Sorted(slices.Values(ev.Ports))
		d.portOpen = d.spec.Port != 0 && slices.Contains(d.ports, d.spec.Port)
	case EventProbe:
		switch ev.Probe.Kind {
		case ProbeHTTP:
			d.httpStatus = ev.Probe.Status
		case ProbeExec:
			d.execOK = ev.Probe.OK
		}
	case EventExec:
		if d.spec.ReadyByRunning() && !d.ready {
			// A shim has not yet chosen the program; once it has, the
			// program settles from then.
			was := d.launching
			d.launching, d.busy = isLauncher(ev.Program), ev.Busy
			if d.launching != was {
				d.readySince = ev.Time
			}
		}
	case EventDeps:
		d.deps = make(map[string]string, len(ev.Deps))
		for name, state := range ev.Deps {
			d.deps[name] = string(state)
		}
	}
	return ""
}

// absorbLine applies the line priorities: error, then not-ready, then
// ready. After an error line, lines are collected into the failure.
func (d *Detector) absorbLine(l Line, now time.Time) string {
	text := l.Text
	if text == "" && len(l.Raw) > 0 {
		text = StripText(l.Raw)
	}
	d.log.add(text)
	if l.Stream == StreamStderr && strings.TrimSpace(text) != "" {
		d.lastStderr = text
	}
	if d.interactive() {
		// The screen, not the jumble of redrawn lines, decides.
		return text
	}
	return d.matchLine(text, now)
}

// matchLine applies the line priorities to text: error, then not-ready,
// then ready. It returns text.
func (d *Detector) matchLine(text string, now time.Time) string {
	d.remember(text)
	if d.failing != nil {
		d.failing.add(text, now)
		return text
	}
	if p, ok := matchAny(d.spec.ErrorPatterns, text); ok {
		if d.ready && !d.spec.waitsForNothing() {
			// Up and serving, by a signal of its own: an error now (a dev
			// server's compile error after an edit) makes the run
			// unhealthy, not failed. A ready line brings it back; an exit
			// ends it. A run ready only because it was running has shown
			// nothing that outweighs an error line: it fails.
			if d.verdict.State != StateUnhealthy {
				d.set(Verdict{State: StateUnhealthy, Reason: "error", Message: errorMessage(p, text), Line: text})
			}
			return text
		}
		// The first error line begins the failure; what follows it until
		// the output is quiet says what it is.
		if d.verdict.Reason != "error" && !d.exited {
			d.beginFailure(p, text, now)
		}
		return text
	}
	if _, ok := matchAny(d.spec.NotReadyPatterns, text); ok {
		d.notReadyLine, d.readyLine, d.readyPort = text, "", 0
		d.ready, d.readySince = false, time.Time{}
		return text
	}
	if _, ok := matchAny(d.spec.ReadyPatterns, text); ok {
		if d.readyLine == "" || d.ready || d.spec.Interactive {
			// Before ready, the first ready line is the one that decides
			// (the lines after it may only add its URL: see readyPort).
			d.readyLine = text
		}
		d.notReadyLine = ""
		if d.readyPort == 0 {
			d.readyPort = urlPortOf(text)
		}
		if d.ready && d.verdict.State == StateUnhealthy {
			d.set(Verdict{State: StateReady, Reason: "recovered", Message: "recovered: matched " + quote(text), Line: text})
		}
	}
	return text
}

// decide moves between starting and ready after an event.
func (d *Detector) decide(now time.Time, line string) {
	if d.notReadyLine != "" {
		d.set(Verdict{State: StateStarting, Reason: "not-ready", Line: d.notReadyLine,
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
	if now.Sub(d.readySince) < d.spec.Settle() || d.settling(now) {
		d.set(startingVerdict)
		return
	}
	d.ready = true
	d.set(Verdict{State: StateReady, Reason: "ready", Message: d.readyMessage(), Line: d.readyLine})
}

// checkTimeout fails the run once the readiness timeout has passed, unless
// the ready condition already holds and only the stability delay remains;
// with no timeout but AssumeReadyAfter, it assumes the run ready instead.
func (d *Detector) checkTimeout(now time.Time) {
	if d.failed || d.failing != nil || d.ready || d.up || !d.readySince.IsZero() {
		return
	}
	switch timeout, assume := d.spec.ReadyTimeout, d.spec.AssumeReadyAfter; {
	case timeout > 0 && !now.Before(d.started.Add(timeout)):
		d.fail("timeout", d.timeoutMessage(), "")
	case timeout <= 0 && assume > 0 && !now.Before(d.started.Add(assume)):
		d.ready = true
		d.set(Verdict{State: StateReady, Reason: "assumed", Message: d.assumedMessage()})
	}
}

func (d *Detector) handleExit(e Exit) {
	if d.failing != nil {
		d.decideFailure()
	}
	d.exited = true
	v := classifyExit(e, d.spec.Task)
	if d.spec.Interactive && !d.spec.Task {
		v = classifyExitInteractive(e)
	}
	switch {
	case (d.failed || d.verdict.State == StateUnhealthy) && v.State != StateStopped && v.State != StateCompleted:
		// The error line (or the timeout) says more than the exit code.
		v.Reason, v.Line = d.verdict.Reason, d.verdict.Line
		v.Message = d.verdict.Message + "; then " + e.describe()
	case v.State == StateFailed && v.Reason != "daemonized":
		v.Message, v.Line = d.crashMessage(v.Message)
	}
	d.verdict = v
}

func (d *Detector) fail(reason, message, line string) {
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
