package compose

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"time"

	"github.com/procsdev/procs/rules"
)

// runLoop is the event loop of one run: output lines, the exit, port
// changes, probe results, detector timers and stop requests all arrive on
// channels and are handled here, one at a time.
type runLoop struct {
	s   *supervisor
	c   *childProc
	det *rules.Detector

	lines   chan rules.Line
	exitCh  chan rules.Exit
	portsCh chan []int
	probeCh chan rules.ProbeResult

	requested   bool
	ready       bool
	healthFails int
	stopWatch   context.CancelFunc
}

func newRunLoop(s *supervisor, c *childProc, det *rules.Detector) *runLoop {
	return &runLoop{
		s: s, c: c, det: det,
		lines:   make(chan rules.Line, 1024),
		exitCh:  make(chan rules.Exit, 1),
		portsCh: make(chan []int, 1),
		probeCh: make(chan rules.ProbeResult, 1),
	}
}

func (l *runLoop) loop(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l.startWatchers(ctx)

	var exit *rules.Exit
	var drain, kill <-chan time.Time
	lines, outputClosed := l.lines, false
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	l.armTimer(timer)
	for {
		drained := false
		select {
		case line, ok := <-lines:
			if !ok {
				lines, outputClosed = nil, true
				break
			}
			l.handle(rules.Event{Kind: rules.EventLine, Time: line.Time, Line: line})
		case e := <-l.exitCh:
			exit = &e
			drain = time.After(exitDrainGrace)
		case <-drain:
			drained = true
		case ports := <-l.portsCh:
			l.handle(rules.Event{Kind: rules.EventPorts, Time: time.Now(), Ports: ports})
			l.s.send(report{kind: reportPorts, ports: ports})
		case r := <-l.probeCh:
			l.handleProbe(r)
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
		l.armTimer(timer)
		if exit != nil && (outputClosed || drained) {
			l.finish(*exit, lines)
			return
		}
	}
}

// startWatchers starts the goroutines that turn the OS into events.
func (l *runLoop) startWatchers(ctx context.Context) {
	var readers sync.WaitGroup
	for _, o := range l.c.outputs {
		readers.Go(func() { l.s.readOutput(o, l.lines) })
	}
	// Closing lines tells the loop the output is over.
	go func() { readers.Wait(); close(l.lines) }()
	go func() { l.exitCh <- l.c.wait() }()

	watchCtx, stopWatch := context.WithCancel(ctx)
	l.stopWatch = stopWatch
	go rules.WatchPorts(watchCtx, l.c.pid, func(ports []int) {
		select {
		case l.portsCh <- ports:
		case <-watchCtx.Done():
		}
	})
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
		// Once ready, the ports are known; /proc need not be read again.
		l.stopWatch()
	}
	l.s.send(report{kind: reportVerdict, verdict: v})
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
	l.c.signalGroup(syscall.SIGCONT)
	return time.After(l.s.spec.timeout)
}

// finish reports the exit, after stopping whatever the run left behind.
// lines is nil when the output is already closed.
func (l *runLoop) finish(exit rules.Exit, lines <-chan rules.Line) {
	exit.Requested = l.requested
	for drained := lines == nil; !drained; {
		select {
		case line, ok := <-lines:
			if !ok {
				drained, lines = true, nil
				break
			}
			l.handle(rules.Event{Kind: rules.EventLine, Time: line.Time, Line: line})
		default:
			drained = true
		}
	}
	v, _ := l.det.Handle(rules.Event{Kind: rules.EventExit, Time: time.Now(), Exit: exit})
	// No orphans: the group and anything that escaped it but carries the
	// run's marker go with the main process.
	l.c.signalGroup(syscall.SIGKILL)
	getSpawner().sweepStrays(l.s.spec.owner)
	l.c.closeIO()
	if lines != nil {
		for range lines {
			// Readers end once their streams close; their lines are already logged.
		}
	}
	l.s.send(report{kind: reportExited, verdict: v})
}

func (l *runLoop) armTimer(t *time.Timer) {
	deadline, ok := l.det.Deadline()
	if !ok {
		t.Stop()
		return
	}
	t.Reset(time.Until(deadline))
}
