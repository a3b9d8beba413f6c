package compose

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// runLoop is the event loop of one run: output, the exit, port changes,
// probe results, detector timers, input and stop requests all arrive on
// channels and are handled here, one at a time. It owns the run's detector,
// its screen (PTY runs), its input writer and its attached terminals.
type runLoop struct {
	s   *supervisor
	c   *contain.Process
	det *rules.Detector

	output  chan outputChunk
	exitCh  chan rules.Exit
	portsCh chan []int
	probeCh chan rules.ProbeResult
	execCh  chan rules.Event

	requested bool
	// stopDeadline is when a graceful stop gives way to SIGKILL; zero
	// when no graceful stop was asked for.
	stopDeadline time.Time
	// killedAtTimeout says the graceful stop's timeout ran out with the
	// main process still running, and it was killed.
	killedAtTimeout bool
	ready           bool
	healthFails     int
	// lookedOnReadyLine says the ports were looked at on the ready line
	// (lookOnReadyLine).
	lookedOnReadyLine bool
	// watchCtx ends when the port watcher stops (stopWatch); loopCtx
	// with the loop.
	watchCtx  context.Context
	stopWatch context.CancelFunc
	loopCtx   context.Context
	stopExec  context.CancelFunc
	// probeCtx ends with the loop; stopReadyProbe ends the preset's ready
	// probe (nil until it starts: run_probes.go).
	probeCtx       context.Context
	stopReadyProbe context.CancelFunc
	// stopStartingHealth ends the healthcheck's quick cadence of a run
	// still starting (healthAfterReady).
	stopStartingHealth context.CancelFunc

	// writer writes the run's input; nil until there is some (input).
	writer    *inputWriter
	responder *responder
	// screen is the terminal model of a PTY run (nil for pipes);
	// screenDirty says output was drawn and not yet classified.
	screen      *rules.Screen
	screenDirty bool
	lastRead    time.Time
	clients     map[*attachClient]struct{}
	// portsBefore is the machine's listeners before the run started.
	portsBefore rules.PortsBaseline
	// env is the run's environment, an exec probe's too (probeOf).
	env []string
	// probeWaiting is what status was last told a probe still starting
	// answered (reportProbeWaiting), so each answer is told once.
	probeWaiting string
}

func newRunLoop(s *supervisor, c *contain.Process, det *rules.Detector, portsBefore rules.PortsBaseline, env []string) *runLoop {
	l := &runLoop{
		s: s, c: c, det: det, portsBefore: portsBefore, env: env,
		output:    make(chan outputChunk, outputChunksQueued),
		exitCh:    make(chan rules.Exit, 1),
		portsCh:   make(chan []int, 1),
		probeCh:   make(chan rules.ProbeResult, 1),
		execCh:    make(chan rules.Event, 1),
		responder: newResponder(s.spec.proc.AutoRespond),
		clients:   map[*attachClient]struct{}{},
	}
	if s.spec.window != nil {
		l.screen = rules.NewScreen(int(s.spec.window.Cols), int(s.spec.window.Rows))
		det.AttachScreen(l.screen)
	}
	return l
}

// loop handles the run's events, one at a time, until the run is over.
func (l *runLoop) loop(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l.startWatchers(ctx)
	end := ending{output: l.output, cancelled: ctx.Done()}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	l.armTimer(timer)
	for {
		l.next(&end, timer)
		// Bursts of output are classified once, when the burst is read.
		if l.screenDirty && len(l.output) == 0 {
			l.screenChanged()
		}
		if end.exit == nil {
			l.armTimer(timer)
		} else {
			timer.Stop() // its deadlines are not believed (running)
		}
		if end.over() {
			l.finish(*end.exit, end.output)
			return
		}
	}
}

// ending is what the loop knows of how the run ends.
type ending struct {
	// output is nil once the output has ended.
	output <-chan outputChunk
	// exit is set once the main process has exited; drain fires when the
	// output has had its grace after that, and drained says it has.
	exit    *rules.Exit
	drain   <-chan time.Time
	drained bool
	// kill fires when a graceful stop has run out of time.
	kill <-chan time.Time
	// cancelled is the run's context ending; nil once handled.
	cancelled <-chan struct{}
}

// over says the run is over: its main process exited, and its output
// ended or had its grace.
func (e *ending) over() bool {
	return e.exit != nil && (e.output == nil || e.drained)
}

// next waits for one event and handles it.
func (l *runLoop) next(end *ending, timer *time.Timer) {
	select {
	case chunk, ok := <-end.output:
		if !ok {
			end.output = nil
			break
		}
		l.handleOutput(chunk)
	case req := <-l.s.inputCh:
		l.handleInput(req)
	case res := <-l.written():
		l.handleWritten(res)
	case f := <-l.s.loopCh:
		f(l)
	case e := <-l.exitCh:
		l.takeExit(end, e)
	case <-end.drain:
		end.drained = true
	case ports := <-l.portsCh:
		if l.running(end) {
			l.handlePorts(ports)
		}
	case deps := <-l.s.depsCh:
		if l.running(end) {
			l.handle(rules.Event{Kind: rules.EventDeps, Time: time.Now(), Deps: deps})
		}
	case r := <-l.probeCh:
		if l.running(end) {
			l.handleProbe(r)
		}
	case ev := <-l.execCh:
		if l.running(end) {
			l.handle(ev)
		}
	case now := <-timer.C:
		if l.running(end) {
			l.handle(rules.Event{Kind: rules.EventTimer, Time: now})
		}
	case graceful := <-l.s.stopCh:
		end.kill = l.beginStop(graceful)
	case <-end.kill:
		l.killedAtTimeout = true
		l.c.Signal(syscall.SIGKILL)
	case <-end.cancelled:
		end.cancelled = nil
		l.requested = true
		l.c.Signal(syscall.SIGKILL)
	}
}

// takeExit records the main process's exit: the output has its grace to
// end, and the watchers stop, since what they would see from now on is
// not of a running service.
func (l *runLoop) takeExit(end *ending, e rules.Exit) {
	end.exit = &e
	end.drain = time.After(exitDrainGrace)
	l.stopWatch()
	l.stopExec()
	l.readyProbeDone()
}

// running says whether the main process still runs, as far as the run
// can know. What a watcher saw, a probe's answer and a timer's deadline
// are believed only then: once it has exited, the run is over whatever
// its tree still does (a port open is its daemon's, a delay that runs
// out found no crash only because it ended first), and finish gives the
// verdict. An exit not yet taken in is taken first, since the watcher
// may have looked just before it, and the report may have overtaken it.
// Output is not asked: a line was true when it was written.
func (l *runLoop) running(end *ending) bool {
	if end.exit == nil && osproc.ExitPending(l.c.PID()) {
		l.takeExit(end, <-l.exitCh)
	}
	return end.exit == nil
}

// handlePorts takes a change in the ports the run's tree listens on.
func (l *runLoop) handlePorts(ports []int) {
	l.probeWhenListening(ports)
	// Ports first: a verdict this event causes must find them known.
	l.s.send(report{kind: reportPorts, ports: ports})
	l.handle(rules.Event{Kind: rules.EventPorts, Time: time.Now(), Ports: ports})
	if l.ready && len(ports) > 0 && l.det.Verdict().State == rules.StateReady {
		// Ready and listening: status knows its ports; /proc need not be
		// read again until the run is unhealthy (handle).
		l.stopWatch()
	}
}

// startWatchers starts the goroutines that turn the OS into events.
func (l *runLoop) startWatchers(ctx context.Context) {
	// The last reader to end closes output: that tells the loop the
	// output is over.
	var reading atomic.Int32
	reading.Store(int32(len(l.c.Outputs())))
	for _, o := range l.c.Outputs() {
		go func() {
			l.s.readOutput(o, l.output, l.screen != nil)
			if reading.Add(-1) == 0 {
				close(l.output)
			}
		}()
	}
	go func() { l.exitCh <- l.c.Wait() }()

	l.loopCtx = ctx
	l.watchPorts(nil)
	execCtx, stopExec := context.WithCancel(ctx)
	l.stopExec = stopExec
	if d := l.s.spec.detect; d != nil && d.WatchesPrograms() {
		go watchExec(execCtx, l.c.PID(), func(at time.Time, programs string, busy bool) {
			select {
			case l.execCh <- rules.Event{Kind: rules.EventExec, Time: at, Program: programs, Busy: busy}:
			case <-execCtx.Done():
			}
		})
	}
	l.startProbes(ctx)
}

func (l *runLoop) handle(ev rules.Event) {
	v, changed := l.det.Handle(ev)
	if !changed {
		l.lookOnReadyLine(ev.Time)
		return
	}
	switch {
	case v.State == rules.StateReady && !l.ready:
		l.ready = true
		l.stopExec()
		l.readyProbeDone()
		l.healthAfterReady()
		l.settlePorts(ev.Time)
	case v.State == rules.StateReady && l.watchCtx.Err() == nil:
		l.settlePorts(ev.Time) // recovered
	case v.State == rules.StateUnhealthy && l.ready && l.watchCtx.Err() != nil:
		// A reloader that restarts the app closes its port while the app
		// is broken and opens it again once fixed: status must not show a
		// closed port, and the port open again is a sign it is back.
		l.watchPorts(l.det.Ports())
	}
	l.s.send(report{kind: reportVerdict, verdict: l.advise(v), screen: l.screenTail()})
}

// lookOnReadyLine looks at the run's ports at once when a ready line has
// just come and readiness waits only for its port: most servers print it
// once they listen, so the port is open already, and the watcher's next
// look may be up to a quarter of a second away. When it is not open yet (a line
// printed just before the bind), the watcher starts again from its
// quickest step. Once per run. at is when the line was read.
func (l *runLoop) lookOnReadyLine(at time.Time) {
	if l.lookedOnReadyLine || !l.det.AwaitsPort() {
		return
	}
	l.lookedOnReadyLine = true
	_, _ = l.lookAtPorts(at)
	if !l.det.AwaitsPort() {
		return
	}
	if l.watchCtx.Err() == nil {
		l.watchPorts(l.det.Ports())
	}
	// Status and a wait that gives up say what is missing: the line came,
	// the port did not. "starting: <command>" would hide both.
	l.reportWaiting(rules.ReasonAwaitingPort, l.det.Verdict(), l.det.Waiting())
}

// reportWaiting tells status what a run still starting waits for, text
// (Detector.Waiting), for reason, over the starting verdict waiting.
func (l *runLoop) reportWaiting(reason rules.Reason, waiting rules.Verdict, text string) {
	waiting.Reason, waiting.Message = reason, text
	l.s.send(report{kind: reportVerdict, verdict: waiting, screen: l.screenTail()})
}

// advise adds to a failed verdict what to do about it, when procs can tell
// (advice.go); the detector keeps its own words.
func (l *runLoop) advise(v rules.Verdict) rules.Verdict {
	advice := installAdvice(v, l.s.spec.proc.Cwd)
	if advice == "" {
		advice = typoAdvice(v, l.env, l.s.spec.proc.Cwd)
	}
	if advice != "" {
		v.Message += "; " + advice
	}
	return v
}

// settlePorts takes one last look at the ports when the run is ready (or
// ready again), since a ready line can come before the watcher's next look
// (the port a dev server moved to is bound before it says so); then, once
// it listens, /proc need not be read again. A run that is expected to
// listen (rules.Spec.ExpectsPort) but is ready by a line before it does
// (redis, caddy) is watched until it does, for a while, so status shows
// its ports; any other run is not watched after ready, so that a procs
// whose processes are all ready is silent at once. at is when procs saw
// what made the run ready (see lookAtPorts).
func (l *runLoop) settlePorts(at time.Time) {
	ports, err := l.lookAtPorts(at)
	expects := l.s.spec.detect != nil && l.s.spec.detect.ExpectsPort()
	if err != nil || len(ports) > 0 || !expects {
		l.stopWatch()
	} else {
		time.AfterFunc(portsAfterReadyWatch, l.stopWatch)
	}
}

// lookAtPorts reads the ports the run's tree listened on at the moment at
// (a read of the machine's listeners begun since then, which runs ready
// at once share: rules.ListeningPortsSince), apart from the watcher, and
// tells status and detection when they changed.
func (l *runLoop) lookAtPorts(at time.Time) ([]int, error) {
	ports, err := rules.ListeningPortsSince(l.c.PID(), l.portsBefore, at)
	if err == nil && !slices.Equal(ports, l.det.Ports()) {
		l.s.send(report{kind: reportPorts, ports: ports})
		l.handle(rules.Event{Kind: rules.EventPorts, Time: time.Now(), Ports: ports})
	}
	return ports, err
}

// watchPorts (re)starts the watcher of the ports the run's tree listens
// on: from the baseline taken before the run started when known is nil,
// else from known, the ports last seen, with a first report of what it
// finds (a report of the watcher it replaces may still be queued).
func (l *runLoop) watchPorts(known []int) {
	if l.stopWatch != nil {
		l.stopWatch()
	}
	ctx, stop := context.WithCancel(l.loopCtx)
	l.watchCtx, l.stopWatch = ctx, stop
	send := func(ports []int) {
		select {
		case l.portsCh <- ports:
		case <-ctx.Done():
		}
	}
	if known == nil {
		go rules.WatchPorts(ctx, l.c.PID(), l.portsBefore, send)
	} else {
		go rules.WatchPortsFrom(ctx, l.c.PID(), known, send)
	}
}

// handleProbe feeds a probe result to detection while starting, and to the
// healthcheck once ready.
func (l *runLoop) handleProbe(r rules.ProbeResult) {
	if !l.ready {
		l.handle(rules.Event{Kind: rules.EventProbe, Time: r.Time, Probe: r})
		l.reportProbeWaiting(r)
		return
	}
	if l.s.spec.health == nil {
		return // the preset's ready probe, whose last result came after ready
	}
	if r.OK {
		if l.healthFails >= l.s.spec.failures {
			l.s.send(report{kind: reportVerdict, verdict: rules.Verdict{State: rules.StateReady, Reason: rules.ReasonHealthy, Message: "healthcheck passes again"}})
		}
		l.healthFails = 0
		return
	}
	l.healthFails++
	if l.healthFails == l.s.spec.failures {
		msg := fmt.Sprintf("healthcheck failed %d times: %s", l.healthFails, probeText(r))
		l.s.send(report{kind: reportVerdict, verdict: rules.Verdict{State: rules.StateUnhealthy, Reason: rules.ReasonHealthcheck, Message: msg}})
	}
}

// reportProbeWaiting tells status what a failed probe of a run still
// starting answered, when that changed: "starting: <command>" said
// nothing of a healthcheck answering 404, to a person or to a wait that
// gives up.
func (l *runLoop) reportProbeWaiting(r rules.ProbeResult) {
	if l.ready || r.OK || l.requested {
		return
	}
	waiting := l.det.Verdict()
	if waiting.State != rules.StateStarting {
		return
	}
	text := l.det.Waiting()
	if text == "" || text == l.probeWaiting {
		return
	}
	l.probeWaiting = text
	l.reportWaiting(rules.ReasonAwaitingProbe, waiting, text)
}

func probeText(r rules.ProbeResult) string {
	if r.Err != "" {
		return r.Err
	}
	return fmt.Sprintf("%s status %d", r.Kind, r.Status)
}

// portsAfterReadyWatch bounds how long a run ready before it listens is
// watched for the ports it opens.
const portsAfterReadyWatch = 10 * time.Second

func (l *runLoop) armTimer(t *time.Timer) {
	deadline, ok := l.det.Deadline()
	if !ok {
		t.Stop()
		return
	}
	t.Reset(time.Until(deadline))
}
