package compose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/rules"
)

// waiter is a caller blocked in Wait.
type waiter struct {
	name    string
	targets []rules.State
	minRun  int
	began   time.Time
	done    chan rules.Result
	// notify, when set, receives the result on the engine goroutine
	// instead of done (waits the engine itself started, as watch: does).
	notify func(rules.Result)
}

// answer delivers the result; done has room for it.
func (w *waiter) answer(res rules.Result) {
	if w.notify != nil {
		w.notify(res)
		return
	}
	w.done <- res
}

// resolveWaiters answers every waiter whose process reached a target state
// or a state from which the target cannot be reached.
func (e *Engine) resolveWaiters() {
	e.waiters = slices.DeleteFunc(e.waiters, func(w *waiter) bool {
		ps := e.procs[w.name]
		success, over := e.waitOutcome(ps, w)
		if !over {
			return false
		}
		w.answer(e.result(ps, w, success, ""))
		return true
	})
}

// waitOutcome says whether the wait is over and whether it succeeded.
func (e *Engine) waitOutcome(ps *procState, w *waiter) (success, over bool) {
	if ps.run >= w.minRun && slices.Contains(w.targets, ps.state) {
		return true, true
	}
	if ps.run < w.minRun {
		// The awaited run has not started: over only if it never will.
		over = !ps.wanted && !ps.running() || ps.state == rules.StateBlocked || e.shuttingDown
		return false, over
	}
	if ps.state == rules.StateFailed && ps.recoverable && ps.running() {
		return false, false // it retries by itself: keep waiting
	}
	switch ps.state {
	case rules.StateFailed, rules.StateBlocked, rules.StateStopped, rules.StateCompleted, rules.StateBackoff:
		return false, true
	}
	return false, e.shuttingDown && !ps.running()
}

// failWaiters answers every remaining waiter when the engine ends.
func (e *Engine) failWaiters() {
	for _, w := range e.waiters {
		w.answer(e.result(e.procs[w.name], w, false, "procs stopped"))
	}
	e.waiters = nil
}

// result builds the structured result of ARCHITECTURE.md §4 for a waiter.
func (e *Engine) result(ps *procState, w *waiter, success bool, note string) rules.Result {
	msg := ps.message
	if ps.state == rules.StateReady && ps.run >= w.minRun {
		msg = readyMessage(ps, w.began)
	} else if msg == "" {
		msg = string(ps.state)
	}
	if note != "" {
		msg = note + "; " + msg
	}
	if !success && ps.state != rules.StateBlocked && ps.state != rules.StatePending && ps.line != "" && !quotes(msg, ps.line) {
		msg += fmt.Sprintf(" (line %q)", ps.line)
	}
	logs := lastLinesOfRun(ps, w.minRun)
	if !success && len(logs) > 0 && ps.line != "" {
		// The lines around the cause, which a stack trace may have pushed out.
		logs = rules.FailureLogs(ps.ring, ps.startedAt, ps.line)
	}
	if len(ps.screen) > 0 && ps.run >= w.minRun {
		logs = slices.Clone(ps.screen)
	}
	return rules.Result{
		Name: ps.cfg.Name, Success: success, State: ps.state, Run: ps.run,
		DurationMs: time.Since(w.began).Milliseconds(), Message: msg,
		Ports: slices.Clone(ps.ports), Logs: logs,
	}
}

// quotes reports whether msg holds line, as it is or quoted.
func quotes(msg, line string) bool {
	return strings.Contains(msg, line) || strings.Contains(msg, strconv.Quote(strings.TrimSpace(line)))
}

// readyMessage says why a process counts as ready and when, for a wait
// that began at began: the run's start-up ("ready in 828ms") while it is
// still the run's first ready, else this wait's own story (an agent back
// at its prompt after input): how long the wait took, or that it was
// ready already.
func readyMessage(ps *procState, began time.Time) string {
	var head string
	switch {
	case !ps.since.After(ps.readyAt):
		head = fmt.Sprintf("ready in %s", ps.readyAt.Sub(ps.startedAt).Round(time.Millisecond))
	case ps.since.After(began):
		head = fmt.Sprintf("ready again after %s of this wait", ps.since.Sub(began).Round(time.Millisecond))
	default:
		head = fmt.Sprintf("ready already, for %s", began.Sub(ps.since).Round(time.Millisecond))
	}
	if ps.message != "" {
		return head + ": " + ps.message
	}
	return head
}

// takeScreenNow replaces the last lines of a PTY process's result with its
// screen of this moment: the engine keeps the screen of the last verdict,
// and output that changes no verdict (the line printed after a dialog was
// answered, a redraw at the same prompt) is on screen but not there. A
// result describes the moment it returns.
func (e *Engine) takeScreenNow(res *rules.Result, minRun int) {
	var sup *supervisor
	_ = e.onProc(res.Name, func(ps *procState) error {
		if ps.pty && ps.sup != nil && ps.run == res.Run && ps.run >= minRun {
			sup = ps.sup
		}
		return nil
	})
	if sup == nil {
		return
	}
	var tail []string
	if err := sup.onLoop(func(l *runLoop) { tail = l.screenTail() }); err == nil && len(tail) > 0 {
		res.Logs = tail
	}
}

// lastLinesOfRun returns the last log lines of the current run: a result speaks of
// the run it waited for, never of output an earlier run left in the ring.
// It is empty while the run waited for has not started.
func lastLinesOfRun(ps *procState, minRun int) []string {
	if ps.run < minRun || ps.run == 0 {
		return []string{}
	}
	return rules.RunLogs(ps.ring, ps.startedAt)
}

func joinStates(states []rules.State) string {
	parts := make([]string, len(states))
	for i, s := range states {
		parts[i] = string(s)
	}
	return strings.Join(parts, " or ")
}
