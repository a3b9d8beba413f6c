package compose

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/rules"
)

// waiter is a caller blocked in Wait. The machine decides when its wait
// is over; the engine builds and delivers the result.
type waiter struct {
	id      int
	name    string
	targets []rules.State
	minRun  int
	began   time.Time
	done    chan rules.Result
	// notify, when set, receives the result on the engine goroutine
	// instead of done (waits the engine itself started, as watch: does).
	notify func(rules.Result)
}

// addWaiter registers w with the machine, which answers it exactly once.
func (e *Engine) addWaiter(w *waiter) error {
	e.lastWait++
	w.id = e.lastWait
	if err := e.life.Wait(w.id, w.name, w.targets, w.minRun); err != nil {
		return err
	}
	e.waiters[w.id] = w
	return nil
}

// answer delivers the machine's answer to a wait; done has room for it.
func (e *Engine) answer(a lifecycle.Answer) {
	w := e.waiters[a.Waiter]
	if w == nil {
		return
	}
	delete(e.waiters, a.Waiter)
	ps := e.procs[w.name]
	if ps == nil {
		// The end of a process removed from the config, asked for after
		// it: the engine holds none of its lines any more.
		ps = &procState{ring: &rules.Ring{}}
	}
	res := e.result(&a.Proc, ps, w, a.Success, a.Note)
	if w.notify != nil {
		w.notify(res)
		return
	}
	w.done <- res
}

// result builds the structured result of ARCHITECTURE.md §4 for a waiter,
// from the lifecycle lp of the process and what the engine holds of it.
func (e *Engine) result(lp *lifecycle.Proc, ps *procState, w *waiter, success bool, note string) rules.Result {
	msg := lp.Message
	if lp.State == rules.StateReady && lp.Run >= w.minRun {
		msg = readyMessage(lp, w.began)
	} else if msg == "" {
		msg = string(lp.State)
	}
	if note != "" {
		msg = note + "; " + msg
	}
	if !success && lp.State != rules.StateBlocked && lp.State != rules.StatePending && lp.Line != "" && !quotes(msg, lp.Line) {
		msg += fmt.Sprintf(" (line %q)", lp.Line)
	}
	logs := lastLinesOfRun(lp, ps.ring, w.minRun)
	if !success && len(logs) > 0 && lp.Line != "" {
		// The lines around the cause, which a stack trace may have pushed out.
		logs = rules.FailureLogs(ps.ring, lp.StartedAt, lp.Line)
	}
	if len(ps.screen) > 0 && lp.Run >= w.minRun {
		logs = slices.Clone(ps.screen)
	}
	return rules.Result{
		Name: lp.Cfg.Name, Success: success, State: lp.State, Run: lp.Run,
		DurationMs: time.Since(w.began).Milliseconds(), Message: msg,
		Ports: slices.Clone(lp.Ports), Logs: logs,
	}
}

// quotes reports whether msg holds line, as it is or quoted, in full or
// shortened as messages quote a long line (rules.Quote).
func quotes(msg, line string) bool {
	return strings.Contains(msg, line) || strings.Contains(msg, strconv.Quote(strings.TrimSpace(line))) ||
		strings.Contains(msg, rules.Quote(line))
}

// readyMessage says why a process counts as ready and when, for a wait
// that began at began: the run's start-up ("ready in 828ms") while it is
// still the run's first ready, else this wait's own story (an agent back
// at its prompt after input): how long the wait took, or that it was
// ready already.
func readyMessage(lp *lifecycle.Proc, began time.Time) string {
	var head string
	switch {
	case !lp.Since.After(lp.ReadyAt):
		head = fmt.Sprintf("ready in %s", lp.ReadyAt.Sub(lp.StartedAt).Round(time.Millisecond))
	case lp.Since.After(began):
		head = fmt.Sprintf("ready again after %s of this wait", lp.Since.Sub(began).Round(time.Millisecond))
	default:
		head = fmt.Sprintf("ready already, for %s", began.Sub(lp.Since).Round(time.Millisecond))
	}
	if lp.Message != "" {
		return head + ": " + lp.Message
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
		if ps.pty && ps.sup != nil && ps.life.Run == res.Run && ps.life.Run >= minRun {
			sup = ps.sup
		}
		return nil
	})
	if sup == nil {
		return
	}
	// A run in its finish takes no request for a while: the result does not
	// wait for it, and keeps the screen of its last verdict.
	ctx, cancel := context.WithTimeout(context.Background(), screenNowLimit)
	defer cancel()
	taken := make(chan []string, 1)
	if err := sup.onLoop(ctx, func(l *runLoop) { taken <- l.screenTail() }); err == nil {
		if tail := <-taken; len(tail) > 0 {
			res.Logs = tail
		}
	}
}

// screenNowLimit bounds how long a result waits for the screen of now.
const screenNowLimit = time.Second

// lastLinesOfRun returns the last log lines of the current run: a result speaks of
// the run it waited for, never of output an earlier run left in the ring.
// It is empty while the run waited for has not started.
func lastLinesOfRun(lp *lifecycle.Proc, ring *rules.Ring, minRun int) []string {
	if lp.Run < minRun || lp.Run == 0 {
		return []string{}
	}
	return rules.RunLogs(ring, lp.StartedAt)
}

func joinStates(states []rules.State) string {
	parts := make([]string, len(states))
	for i, s := range states {
		parts[i] = string(s)
	}
	return strings.Join(parts, " or ")
}
