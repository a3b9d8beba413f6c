package compose

import (
	"fmt"
	"syscall"
	"time"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// beginStop signals the run (its process group, and what left the group:
// a setsid daemon) and returns when to SIGKILL it.
func (l *runLoop) beginStop(graceful bool) <-chan time.Time {
	l.requested = true
	if !graceful {
		l.c.Signal(syscall.SIGKILL)
		return nil
	}
	// A shell wrapper may forward nothing; the group signal reached its
	// children anyway. SIGCONT wakes a stopped group so it can exit.
	l.c.SignalRun(l.s.spec.signal, osproc.SIGCONT)
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
	exit.Daemon = left.Describe()
	v, _ := l.det.Handle(rules.Event{Kind: rules.EventExit, Time: time.Now(), Exit: exit})
	v = l.advise(v)
	left.Stop(l.s.spec.signal, min(l.s.spec.timeout, daemonStopGrace))
	// A stop ends when the whole run has (until its deadline, or a kill
	// asked for meanwhile); then nothing of the run is left, wherever it
	// went.
	// The watch starts only if End waits: mostly it does not, and two
	// hundred goroutines made for nothing were a twentieth of a
	// shutdown's CPU.
	stopKillWatch := func() bool { return false }
	killedAtDeadline := l.c.End(l.stopDeadline, func() { stopKillWatch = l.killWhileEnding() })
	switch killAsked := stopKillWatch(); {
	case killAsked:
		// The signal ended the main process, not all of the run, and a
		// kill came before the deadline (a second Ctrl-C).
		v.Message += fmt.Sprintf("; what was left of the run after %s was killed (SIGKILL), as asked",
			l.s.spec.proc.Shutdown.Signal)
	case l.killedAtTimeout && exit.Signal == syscall.SIGKILL:
		// Not a kill someone asked for: the main process outlived its
		// stop signal (a shutdown handler that hangs, or none at all),
		// and its whole group was killed with it.
		v.Message += fmt.Sprintf("; still running %s after %s (its shutdown.timeout)",
			l.s.spec.timeout, l.s.spec.proc.Shutdown.Signal)
	case killedAtDeadline:
		// The signal ended the main process, not all of the run: say
		// what it took (a daemon that ignores SIGTERM, a slow child).
		v.Message += fmt.Sprintf("; what was left of the run %s after %s was killed (SIGKILL)",
			l.s.spec.timeout, l.s.spec.proc.Shutdown.Signal)
	}
	// The writers are gone, so what the pipes still hold ends in EOF: read
	// it all before closing them, or a loop that fell behind would lose the
	// last lines from the log file. The bound is for a stray holding a pipe.
	output = l.readToEnd(output, outputEndGrace)
	l.c.CloseIO()
	if l.writer != nil {
		l.writer.stop()
	}
	l.detachAll()
	if output != nil {
		for range output {
			// Readers end once their streams close; their lines are already logged.
		}
	}
	// The run opened its log (openForRun); it closes it, here where runs
	// end side by side, not at the end of a shutdown, where two hundred
	// closes one after another were the last thing procs waited for. A
	// write after this (a later run) opens the file again.
	_ = l.s.logs.Close()
	l.s.send(report{kind: reportExited, verdict: v, screen: l.screenTail(), lastScreen: l.lastScreen()})
}

// killWhileEnding takes the stop requests that come while the run waits
// for what its main process left (End): the loop that takes them otherwise
// is past its last event. A kill (stop, not graceful) kills the run at
// once; a graceful one is the stop under way. The returned function ends
// the watch, and reports whether a kill came.
func (l *runLoop) killWhileEnding() (stop func() (killAsked bool)) {
	done, result := make(chan struct{}), make(chan bool, 1)
	go func() {
		for {
			select {
			case graceful := <-l.s.stopCh:
				if graceful {
					continue
				}
				l.c.Kill()
				<-done
				result <- true
				return
			case <-done:
				result <- false
				return
			}
		}
	}()
	return func() bool {
		close(done)
		return <-result
	}
}

// daemonStopGrace bounds how long a daemon left behind has to stop on the
// shutdown signal before it is killed.
const daemonStopGrace = 5 * time.Second

// daemonized returns what a service left running when its main process
// exited 0 by itself: a daemon (nginx, redis-server --daemonize yes,
// pg_ctl start) that procs cannot watch and must not leave behind.
func (l *runLoop) daemonized(exit rules.Exit) contain.Daemons {
	spec := l.s.spec.detect
	if exit.Code != 0 || exit.Signal != 0 || exit.Err != nil || exit.Requested ||
		spec == nil || spec.Task || spec.Interactive {
		return contain.Daemons{}
	}
	return l.c.Daemons()
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
