package compose

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// exitDrainGrace is how long, after the main process exits, the supervisor
// keeps reading output that descendants still hold open before it reports
// the exit. The lines that arrive within it are the last words of the run.
const exitDrainGrace = 250 * time.Millisecond

// maxLineBytes caps one line; longer output continues as further lines.
const maxLineBytes = 64 << 10

// runSpec is everything a supervisor needs to run one run of one process.
type runSpec struct {
	name   string
	run    int
	proc   *config.Proc
	detect *rules.Spec
	argv   []string
	// environ makes the environment as the run starts.
	environ  environ
	dir      string
	signal   syscall.Signal
	timeout  time.Duration
	owner    contain.Owner
	health   *rules.ProbeSpec
	interval time.Duration
	failures int
	// window is the terminal size of a PTY run; nil runs on pipes.
	window *pty.Winsize
	// limits are the run's resources: (resources.go).
	limits contain.Limits
	// noInput gives the run /dev/null for stdin (contain.Spec.NoInput).
	noInput bool
}

// supervisor runs one run of one process: it starts it, feeds its output and
// the OS signals to a detector, and reports verdicts to the engine. It owns
// no engine state; the engine owns it through the stop channel.
type supervisor struct {
	spec    runSpec
	logs    *logFile
	ring    *rules.Ring
	bus     *Bus
	contain contain.Containment
	reports chan<- report

	stopCh chan bool // true: graceful, false: kill now
	done   chan struct{}
	// inputCh carries input to the run loop; loopCh runs requests on it
	// (attach, resize).
	inputCh chan inputRequest
	loopCh  chan func(*runLoop)
	// depsCh carries the states of the run's dependencies to its ready
	// rule (deps.NAME): the latest only, never blocking the engine.
	depsCh chan map[string]rules.State
}

// reportKind says what a supervisor is reporting.
type reportKind int

const (
	reportStarted reportKind = iota // the process is running (pid)
	reportVerdict                   // detection changed its verdict
	reportPorts                     // the ports the tree listens on changed
	reportExited                    // the run is over (final verdict)
)

// report is a message from a supervisor to the engine loop.
type report struct {
	name string
	run  int
	kind reportKind
	pid  int
	// runEnv is, with reportStarted, what the config gave the run's
	// environment.
	runEnv  map[string]string
	verdict rules.Verdict
	ports   []int
	// screen is, for a PTY run, the last rows of its screen with the verdict.
	screen []string
	// lastScreen is, with the exit of a PTY run, its whole last screen.
	lastScreen *ScreenText
}

func newSupervisor(spec runSpec, logs *logFile, ring *rules.Ring, bus *Bus, c contain.Containment, reports chan<- report) *supervisor {
	return &supervisor{
		spec: spec, logs: logs, ring: ring, bus: bus, contain: c, reports: reports,
		stopCh: make(chan bool, 2), done: make(chan struct{}),
		inputCh: make(chan inputRequest, inputQueueSize), loopCh: make(chan func(*runLoop)),
		depsCh: make(chan map[string]rules.State, 1),
	}
}

// stop asks the run to end: gracefully (signal, then SIGKILL after the
// timeout) or at once.
func (s *supervisor) stop(graceful bool) {
	select {
	case s.stopCh <- graceful:
	default:
	}
}

// sendDeps gives the run the states of its dependencies, replacing any
// the loop has not taken yet. Only the engine's goroutine sends.
func (s *supervisor) sendDeps(states map[string]rules.State) {
	select {
	case <-s.depsCh:
	default:
	}
	s.depsCh <- states
}

func (s *supervisor) send(r report) {
	r.name, r.run = s.spec.name, s.spec.run
	s.reports <- r
}

// run supervises the run to its end. It always sends reportExited last.
func (s *supervisor) run(ctx context.Context) {
	defer close(s.done)
	defer s.failPendingInput()
	started := time.Now()
	det := rules.NewDetector(s.spec.detect, s.spec.run, started)
	env, runEnv, err := s.spec.environ()
	if err != nil {
		s.send(report{kind: reportExited, verdict: rules.Verdict{State: rules.StateFailed, Reason: rules.ReasonStart, Message: err.Error(), ExitCode: -1}})
		return
	}
	if v, failed := s.preflight(ctx); failed {
		s.send(report{kind: reportExited, verdict: v})
		return
	}
	// The log is opened while the child is forked and executes its
	// program: creating a file can take a while (a file system that has
	// just freed many), and output is read only once it is open.
	logOpened := make(chan struct{})
	go func() { defer close(logOpened); s.logs.openForRun(s.spec.run) }()
	portsBefore := rules.PortsBefore()
	c, err := s.contain.Start(contain.Spec{
		Argv: s.spec.argv, Dir: s.spec.dir, Env: env, Window: s.spec.window, Owner: s.spec.owner,
		Limits: s.spec.limits, NoInput: s.spec.noInput,
	})
	<-logOpened
	if err != nil {
		s.send(report{kind: reportExited, verdict: startFailure(s.spec, err)})
		return
	}
	s.send(report{kind: reportStarted, pid: c.PID(), runEnv: runEnv})
	l := newRunLoop(s, c, det, portsBefore, env)
	l.loop(ctx)
}

// preflight fails the run before it starts when its port is taken.
func (s *supervisor) preflight(ctx context.Context) (rules.Verdict, bool) {
	port := s.spec.proc.Port
	if port == 0 || !rules.PortInUse(port) {
		return rules.Verdict{}, false
	}
	// After a restart the old run's listener may outlive it by a moment (a
	// killed child still releasing its sockets): give it time to go. A
	// first run fails at once: another program holds the port.
	if s.spec.run > 1 {
		switch s.waitPortFree(ctx, port, portReleaseWait) {
		case portFree:
			return rules.Verdict{}, false
		case portWaitStopped:
			return rules.Verdict{State: rules.StateStopped, Reason: rules.ReasonStopped, Message: "stopped on request before it started"}, true
		}
	}
	msg := fmt.Sprintf("port %d is in use", port)
	if h, ok := rules.HolderOf(port); ok {
		msg = fmt.Sprintf("port %d is in use by pid %d (%s)", port, h.PID, h.Cmdline)
	}
	msg += fmt.Sprintf("; stop it or change the port, then `procs start %s`", s.spec.name)
	return rules.Verdict{State: rules.StateFailed, Reason: rules.ReasonPortInUse, Message: msg}, true
}

// portReleaseWait bounds how long a restart waits for the old run's
// listener to release its port.
const portReleaseWait = 3 * time.Second

// portWait is how waiting for a port ended.
type portWait int

const (
	portFree portWait = iota
	portStillInUse
	portWaitStopped // a stop request came first
)

// waitPortFree looks at the socket tables on a short backoff (the kernel
// sends no event when a socket closes) until port is free, for at most
// limit, or until the run is asked to stop.
func (s *supervisor) waitPortFree(ctx context.Context, port int, limit time.Duration) portWait {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for wait := 10 * time.Millisecond; ; wait = min(wait*2, 200*time.Millisecond) {
		select {
		case <-ctx.Done():
			return portWaitStopped
		case <-s.stopCh:
			return portWaitStopped
		case <-deadline.C:
			if rules.PortInUse(port) {
				return portStillInUse
			}
			return portFree
		case <-time.After(wait):
		}
		if !rules.PortInUse(port) {
			return portFree
		}
	}
}

func startFailure(spec runSpec, err error) rules.Verdict {
	msg := fmt.Sprintf("cannot start %q: %v", spec.proc.Command.String(), err)
	var pathErr *os.PathError
	if errors.As(err, &pathErr) && spec.dir != "" {
		msg += fmt.Sprintf(" (in %s)", spec.dir)
	}
	return rules.Verdict{State: rules.StateFailed, Reason: rules.ReasonStart, Message: msg, ExitCode: -1}
}

func streamName(s rules.Stream) string {
	switch s {
	case rules.StreamStderr:
		return "stderr"
	case rules.StreamPTY:
		return "pty"
	}
	return "stdout"
}
