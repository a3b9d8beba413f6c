package rules

import (
	"slices"
	"time"

	"github.com/expr-lang/expr/vm"

	"github.com/procsdev/procs/rules/agentstream"
)

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
	// readyPort is the port a ready line names (linePortOf), 0 when none.
	readyPort    int
	notReadyLine string // a prompt blocking startup, "" when none
	// reloadedClean says a reload line has come and no error line since
	// (Spec.RecoveredPatterns).
	reloadedClean bool
	// unwell collects the error of a ready run made unhealthy, until a
	// reload; explained says its verdict quotes a better line than before,
	// which is news though its state and reason are the same.
	unwell    *failure
	explained bool
	// failedRequest is the request ("GET /") a server of an unhealthy run
	// answered with a 5xx after its error: only that request served again
	// brings it back ("" when none was logged, or its log names none).
	failedRequest string
	// serving are the ports the run listened on once ready; servingLost
	// says none of them was open at the last look (trackServing).
	serving     []int
	servingLost bool
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
	// servesOn is the port a run that may be assumed ready said it serves
	// on (servingAnnouncement), 0 until it does.
	servesOn int

	ports      []int
	portOpen   bool
	httpStatus int
	execOK     bool
	// probe is the latest result of the spec's ReadyProbe.
	probe ProbeResult
	deps  map[string]string
	log   logTracker

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

	// agent is the session of an agent CLI in its JSON mode, nil for
	// others; agentWaits says it waits for its first prompt.
	agent      *agentstream.Session
	agentWaits bool

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
	if spec.AgentProtocol != "" {
		d.agent = agentstream.NewSession(spec.AgentProtocol, spec.AgentInput)
		return d
	}
	if d.condition(started, "") {
		d.readySince = started
	}
	return d
}

var startingVerdict = Verdict{State: StateStarting, Reason: ReasonStarting, Message: "starting"}

// Handle feeds one event and returns the verdict after it; changed is true
// when the state or reason differs from the previous verdict.
func (d *Detector) Handle(ev Event) (v Verdict, changed bool) {
	if d.exited {
		return d.verdict, false
	}
	prev := d.verdict
	switch {
	case ev.Kind == EventExit:
		d.handleExit(ev.Exit)
	case d.agent != nil:
		d.handleAgent(ev)
	default:
		// A late event still sees the timeout it arrived after.
		d.checkFailure(ev.Time)
		d.checkTimeout(ev.Time)
		line := d.absorb(ev)
		if ev.Kind == EventExec {
			d.checkTimeout(ev.Time) // a program no longer busy may be assumed ready now
		}
		switch {
		case d.interactive():
			d.decideInteractive(ev)
		case !d.failed && d.failing == nil:
			d.decide(ev.Time, line)
		case d.pastTimeout() && d.failing == nil:
			d.decideAfterTimeout(ev.Time, line)
		}
	}
	changed = d.verdict.State != prev.State || d.verdict.Reason != prev.Reason || d.takeFresh() || d.takeExplained() ||
		// An agent's events say more than its state: an init event after
		// it was taken for waiting names the session and the model.
		d.agent != nil && d.verdict.Message != prev.Message
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

// AwaitsPort reports that a ready line has been seen and readiness waits
// only for the port it stands for (the configured one, or the one it
// names) to be listened on: the moment to look at the ports at once,
// rather than on the port watcher's next step.
func (d *Detector) AwaitsPort() bool {
	return d.verdict.State == StateStarting && d.readyLine != "" && !d.lineAgreesWithPorts()
}

// Ports returns the ports the process tree was last seen listening on.
func (d *Detector) Ports() []int { return slices.Clone(d.ports) }

// Deadline returns when the engine must deliver the next EventTimer: the end
// of the stability delay or the readiness timeout. false when none is due.
func (d *Detector) Deadline() (time.Time, bool) {
	if d.agent != nil {
		if d.exited || d.agentWaits || d.agent.Phase != agentstream.PhaseStarting || !d.spec.AgentInput {
			return time.Time{}, false
		}
		return d.started.Add(d.settle()), true
	}
	if d.interactive() && !d.exited {
		if at, ok := d.inputDeadline(); ok {
			return at, true
		}
	}
	if d.failing != nil && !d.exited {
		return d.failing.due(), true
	}
	if d.pastTimeout() && !d.readySince.IsZero() {
		// Come up at last: ready once the stability delay has held.
		return d.readySince.Add(d.settle()), true
	}
	if d.exited || d.failed || d.ready || d.up {
		return time.Time{}, false
	}
	// Until the program is chosen and idle (a new EventExec), or the cap.
	if d.launching && !d.readySince.IsZero() {
		return d.readySince.Add(launcherMax), true
	}
	if d.busy && d.spec.ReadyByRunning() && !d.readySince.IsZero() {
		return d.readySince.Add(max(busyMax, d.settle())), true
	}
	if !d.readySince.IsZero() {
		return d.readySince.Add(d.settle()), true
	}
	if d.spec.ReadyTimeout > 0 {
		return d.started.Add(d.spec.ReadyTimeout), true
	}
	if d.spec.AssumeReadyAfter > 0 {
		return d.assumeAt(), true
	}
	return time.Time{}, false
}

// takeExplained reports, once, that an unhealthy verdict now quotes the
// line that explains it better.
func (d *Detector) takeExplained() bool {
	explained := d.explained
	d.explained = false
	return explained
}
