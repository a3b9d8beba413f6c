package compose

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// runLoop is the event loop of one run: output, the exit, port changes,
// probe results, detector timers, input and stop requests all arrive on
// channels and are handled here, one at a time. It owns the run's detector,
// its screen (PTY runs), its input writer and its attached terminals.
type runLoop struct {
	s   *supervisor
	c   *childProc
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
	ready        bool
	healthFails  int
	stopWatch    context.CancelFunc
	stopExec     context.CancelFunc

	writer    *inputWriter
	responder *responder
	// screen is the terminal model of a PTY run (nil for pipes);
	// screenDirty says output was drawn and not yet classified.
	screen      *rules.Screen
	screenDirty bool
	lastRead    time.Time
	clients     map[*attachClient]struct{}
	// startTicks is when the main process started (clock ticks since
	// boot), to tell what it leaves behind from older processes.
	startTicks uint64
}

func newRunLoop(s *supervisor, c *childProc, det *rules.Detector) *runLoop {
	l := &runLoop{
		s: s, c: c, det: det,
		output:    make(chan outputChunk, 256),
		exitCh:    make(chan rules.Exit, 1),
		portsCh:   make(chan []int, 1),
		probeCh:   make(chan rules.ProbeResult, 1),
		execCh:    make(chan rules.Event, 1),
		writer:    newInputWriter(c),
		responder: newResponder(s.spec.proc.AutoRespond),
		clients:   map[*attachClient]struct{}{},
	}
	if s.spec.window != nil {
		l.screen = rules.NewScreen(int(s.spec.window.Cols), int(s.spec.window.Rows))
		det.AttachScreen(l.screen)
	}
	l.startTicks, _ = procStartTicks(c.pid)
	return l
}

func (l *runLoop) loop(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l.startWatchers(ctx)

	var exit *rules.Exit
	var drain, kill <-chan time.Time
	output, outputClosed := l.output, false
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	l.armTimer(timer)
	for {
		drained := false
		select {
		case chunk, ok := <-output:
			if !ok {
				output, outputClosed = nil, true
				break
			}
			l.handleOutput(chunk)
		case req := <-l.s.inputCh:
			l.handleInput(req)
		case res := <-l.writer.written:
			l.handleWritten(res)
		case f := <-l.s.loopCh:
			f(l)
		case e := <-l.exitCh:
			exit = &e
			drain = time.After(exitDrainGrace)
		case <-drain:
			drained = true
		case ports := <-l.portsCh:
			if l.ready {
				// Ready before it listened (a line decided): status shows
				// the ports once there are some, and then stops looking.
				if len(ports) > 0 {
					l.stopWatch()
					l.s.send(report{kind: reportPorts, ports: ports})
				}
				break
			}
			// Ports first: a verdict this event causes must find them known.
			l.s.send(report{kind: reportPorts, ports: ports})
			l.handle(rules.Event{Kind: rules.EventPorts, Time: time.Now(), Ports: ports})
		case r := <-l.probeCh:
			l.handleProbe(r)
		case ev := <-l.execCh:
			l.handle(ev)
		case now := <-timer.C:
			l.handle(rules.Event{Kind: rules.EventTimer, Time: now})
		case graceful := <-l.s.stopCh:
			kill = l.beginStop(graceful)
		case <-kill:
			l.c.signalGroup(syscall.SIGKILL)
		case <-ctx.Done():
			l.requested = true
			l.c.signalGroup(syscall.SIGKILL)
			ctx = context.Background()
		}
		// Bursts of output are classified once, when the burst is read.
		if l.screenDirty && len(l.output) == 0 {
			l.screenChanged()
		}
		l.armTimer(timer)
		if exit != nil && (outputClosed || drained) {
			l.finish(*exit, output)
			return
		}
	}
}

// startWatchers starts the goroutines that turn the OS into events.
func (l *runLoop) startWatchers(ctx context.Context) {
	var readers sync.WaitGroup
	for _, o := range l.c.outputs {
		readers.Go(func() { l.s.readOutput(o, l.output, l.screen != nil) })
	}
	// Closing output tells the loop the output is over.
	go func() { readers.Wait(); close(l.output) }()
	go l.writer.run()
	go func() { l.exitCh <- l.c.wait() }()

	watchCtx, stopWatch := context.WithCancel(ctx)
	l.stopWatch = stopWatch
	go rules.WatchPorts(watchCtx, l.c.pid, func(ports []int) {
		select {
		case l.portsCh <- ports:
		case <-watchCtx.Done():
		}
	})
	execCtx, stopExec := context.WithCancel(ctx)
	l.stopExec = stopExec
	if d := l.s.spec.detect; d != nil && d.ReadyByRunning() {
		go watchExec(execCtx, l.c.pid, func(at time.Time, programs string, busy bool) {
			select {
			case l.execCh <- rules.Event{Kind: rules.EventExec, Time: at, Program: programs, Busy: busy}:
			case <-execCtx.Done():
			}
		})
	}
	if h := l.s.spec.health; h != nil {
		go rules.RunProbe(ctx, *h, l.s.spec.interval, func(r rules.ProbeResult) {
			select {
			case l.probeCh <- r:
			case <-ctx.Done():
			}
		})
	}
}

func (l *runLoop) handle(ev rules.Event) {
	v, changed := l.det.Handle(ev)
	if !changed {
		return
	}
	if v.State == rules.StateReady && !l.ready {
		l.ready = true
		l.stopExec()
		// Once ready, /proc need not be read again; but a ready line can
		// come before the watcher's next look, so take one last look now
		// (the port a dev server moved to is bound before it says so).
		// A run ready by a line before it listens (redis, caddy) is
		// watched until it does, so status shows its ports.
		ports, err := rules.ListeningPorts(l.c.pid)
		if err == nil && !slices.Equal(ports, l.det.Ports()) {
			l.s.send(report{kind: reportPorts, ports: ports})
		}
		if err != nil || len(ports) > 0 {
			l.stopWatch()
		} else {
			// A worker never listens: look for a while, not for ever.
			time.AfterFunc(portsAfterReadyWatch, l.stopWatch)
		}
	}
	l.s.send(report{kind: reportVerdict, verdict: v, screen: l.screenTail()})
}

// handleProbe feeds a probe result to detection while starting, and to the
// healthcheck once ready.
func (l *runLoop) handleProbe(r rules.ProbeResult) {
	if !l.ready {
		l.handle(rules.Event{Kind: rules.EventProbe, Time: r.Time, Probe: r})
		return
	}
	if r.OK {
		if l.healthFails >= l.s.spec.failures {
			l.s.send(report{kind: reportVerdict, verdict: rules.Verdict{State: rules.StateReady, Reason: "healthy", Message: "healthcheck passes again"}})
		}
		l.healthFails = 0
		return
	}
	l.healthFails++
	if l.healthFails == l.s.spec.failures {
		msg := fmt.Sprintf("healthcheck failed %d times: %s", l.healthFails, probeText(r))
		l.s.send(report{kind: reportVerdict, verdict: rules.Verdict{State: rules.StateUnhealthy, Reason: "healthcheck", Message: msg}})
	}
}

func probeText(r rules.ProbeResult) string {
	if r.Err != "" {
		return r.Err
	}
	return fmt.Sprintf("%s status %d", r.Kind, r.Status)
}

// beginStop signals the process group and returns when to SIGKILL it.
func (l *runLoop) beginStop(graceful bool) <-chan time.Time {
	l.requested = true
	if !graceful {
		l.c.signalGroup(syscall.SIGKILL)
		return nil
	}
	l.c.signalGroup(l.s.spec.signal)
	// A shell wrapper may forward nothing; the group signal reached its
	// children anyway. SIGCONT wakes a stopped group so it can exit.
	l.c.signalGroup(osproc.SIGCONT)
	l.stopDeadline = time.Now().Add(l.s.spec.timeout)
	return time.After(l.s.spec.timeout)
}

// finish reports the exit, after stopping whatever the run left behind.
// output is nil when the output is already closed.
func (l *runLoop) finish(exit rules.Exit, output <-chan outputChunk) {
	exit.Requested = l.requested
	for drained := output == nil; !drained; {
		select {
		case chunk, ok := <-output:
			if !ok {
				drained, output = true, nil
				break
			}
			l.handleOutput(chunk)
		default:
			drained = true
		}
	}
	if l.screenDirty {
		l.screenChanged()
	}
	left := l.daemonized(exit)
	exit.Daemon = left.describe()
	v, _ := l.det.Handle(rules.Event{Kind: rules.EventExit, Time: time.Now(), Exit: exit})
	left.stop(l.s.spec.signal, min(l.s.spec.timeout, daemonStopGrace))
	if !l.stopDeadline.IsZero() {
		// A stop ends when the whole run has: the leader (runuser, a
		// shell) may exit while the server it started still shuts down
		// cleanly (postgres writing its checkpoint). Killing it now would
		// lose that work, and a start right after would find its files.
		getSpawner().waitRunGone(l.s.spec.owner, l.c.pid, l.stopDeadline)
	}
	// No orphans: the group and anything that escaped it but carries the
	// run's marker go with the main process.
	l.c.signalGroup(syscall.SIGKILL)
	getSpawner().sweepStrays(l.s.spec.owner)
	// The writers are gone, so what the pipes still hold ends in EOF: read
	// it all before closing them, or a loop that fell behind would lose the
	// last lines from the log file. The bound is for a stray holding a pipe.
	output = l.readToEnd(output, outputEndGrace)
	l.c.closeIO()
	l.writer.stop()
	l.detachAll()
	if output != nil {
		for range output {
			// Readers end once their streams close; their lines are already logged.
		}
	}
	l.s.send(report{kind: reportExited, verdict: v, screen: l.screenTail(), lastScreen: l.lastScreen()})
}

// portsAfterReadyWatch bounds how long a run ready before it listens is
// watched for the ports it opens.
const portsAfterReadyWatch = 10 * time.Second

// daemonStopGrace bounds how long a daemon left behind has to stop on the
// shutdown signal before it is killed.
const daemonStopGrace = 5 * time.Second

// daemonized returns what a service left running when its main process
// exited 0 by itself: a daemon (nginx, redis-server --daemonize yes,
// pg_ctl start) that procs cannot watch and must not leave behind.
func (l *runLoop) daemonized(exit rules.Exit) daemonized {
	spec := l.s.spec.detect
	if exit.Code != 0 || exit.Signal != 0 || exit.Err != nil || exit.Requested ||
		spec == nil || spec.Task || spec.Interactive {
		return daemonized{}
	}
	return getSpawner().leftBehind(l.s.spec.owner, l.startTicks)
}

func (l *runLoop) armTimer(t *time.Timer) {
	deadline, ok := l.det.Deadline()
	if !ok {
		t.Stop()
		return
	}
	t.Reset(time.Until(deadline))
}

// outputEndGrace bounds how long a finished run's output is read to EOF.
const outputEndGrace = 2 * time.Second

// readToEnd handles output until it ends or grace passes; it returns nil
// when the output ended, else the channel still open.
func (l *runLoop) readToEnd(output <-chan outputChunk, grace time.Duration) <-chan outputChunk {
	if output == nil {
		return nil
	}
	timeout := time.NewTimer(grace)
	defer timeout.Stop()
	for {
		select {
		case chunk, ok := <-output:
			if !ok {
				return nil
			}
			l.handleOutput(chunk)
		case <-timeout.C:
			return output
		}
	}
}
