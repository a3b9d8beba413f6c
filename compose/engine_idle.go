package compose

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
	"github.com/procsdev/procs/rules/agentstream"
)

// ErrNoIdleActions is returned when pausing or resuming a process that has
// no onIdle actions.
var ErrNoIdleActions = errors.New("no onIdle actions")

// idleState is where a process is in its onIdle actions (the respawn loop
// of an agent: idle for a while → send "/clear" → ready → send "continue"
// → ready → one cycle done). Only the engine goroutine touches it.
type idleState struct {
	cfg    *config.OnIdle
	paused bool
	// cycles counts the cycles completed, over every run of the process.
	cycles int
	// inCycle is set from the first input of a cycle to the ready after
	// its last; next is the index of the input to send at the next ready.
	inCycle bool
	next    int
	// timer fires `after` once the process is ready; gen tells a timer
	// that fired after it was superseded.
	timer *time.Timer
	gen   int
	// completed says the agent wrote its completeWhen marker: no more
	// cycles. spentAt is what the agent had spent when the cycle began.
	completed bool
	spentAt   agentstream.Usage
}

func (st *idleState) status() *IdleStatus {
	s := &IdleStatus{Paused: st.paused, Cycles: st.cycles, MaxCycles: st.cfg.MaxCycles, Completed: st.completed}
	if st.inCycle {
		s.Step = st.next
	}
	return s
}

// done reports whether maxCycles cycles have run.
func (st *idleState) done() bool {
	return st.completed || st.cfg.MaxCycles > 0 && st.cycles >= st.cfg.MaxCycles
}

// disarm forgets a pending timer.
func (st *idleState) disarm() {
	st.gen++
	if st.timer != nil {
		st.timer.Stop()
		st.timer = nil
	}
}

// checkIdleConfig refuses onIdle on a process that cannot be idle at a
// prompt: idle actions wait for ready after each input, which only an
// interactive process (classified by its screen) goes back to.
func checkIdleConfig(ps *procState) error {
	if ps.cfg.OnIdle == nil {
		return nil
	}
	if (!ps.detect.Interactive || !ps.pty) && !ps.detect.AgentInput {
		return fmt.Errorf("%s: onIdle needs an interactive process in a terminal: use an agent, shell or REPL framework, or `interactive: true`", ps.cfg.Name)
	}
	ps.idle = &idleState{cfg: ps.cfg.OnIdle}
	return nil
}

// idleOnState moves the idle actions of ps after a change from state from:
// becoming ready arms the `after` timer or sends the next input of the
// cycle in progress; anything else disarms the timer; the end of a run
// abandons its cycle.
func (e *Engine) idleOnState(ps *procState, from rules.State) {
	st := ps.idle
	if st == nil || (from == ps.state() && ps.running()) {
		return
	}
	if ps.state() != rules.StateReady {
		st.disarm()
		if !ps.running() {
			st.inCycle = false
		}
		return
	}
	if st.paused {
		return
	}
	if st.inCycle {
		e.idleStep(ps)
		return
	}
	e.idleArm(ps)
}

// idleArm starts the `after` timer of a process that is ready.
func (e *Engine) idleArm(ps *procState) {
	st := ps.idle
	st.disarm()
	if st.done() {
		return
	}
	gen := st.gen
	st.timer = time.AfterFunc(st.cfg.After.D(), func() {
		e.post(func() {
			if st.gen != gen || st.paused || ps.state() != rules.StateReady || !ps.running() {
				return
			}
			st.timer = nil
			st.inCycle, st.next = true, 0
			e.idleStep(ps)
		})
	})
}

// idleStep sends the next input of the cycle, or ends the cycle when all
// have been sent and the process is ready again.
func (e *Engine) idleStep(ps *procState) {
	st := ps.idle
	n := len(st.cfg.Send)
	if st.next >= n {
		st.inCycle, st.next = false, 0
		st.cycles++
		msg := fmt.Sprintf("idle cycle %d done", st.cycles) + cycleSpent(ps)
		if st.done() {
			msg += fmt.Sprintf("; maxCycles %d reached, no more idle actions", st.cfg.MaxCycles)
		}
		e.infoOf(ps, rules.ReasonIdle, msg)
		e.idleArm(ps)
		return
	}
	text := st.cfg.Send[st.next]
	if st.next == 0 {
		st.spentAt = ps.agentSpent()
	}
	st.next++
	req := inputRequest{data: []byte(text), submit: true, enterAfter: text != ""}
	if ps.detect.AgentProtocol != "" {
		data, err := agentInput(ps, []byte(text))
		req = inputRequest{data: data, submit: err == nil}
	}
	if ps.sup == nil || !req.submit || !ps.sup.queueInput(req) {
		st.inCycle, st.next = false, 0
		e.infoOf(ps, rules.ReasonIdle, fmt.Sprintf("idle cycle %d abandoned: cannot send input", st.cycles+1))
		return
	}
	e.infoOf(ps, rules.ReasonIdle, fmt.Sprintf("idle cycle %d step %d/%d: sent %s", st.cycles+1, st.next, n, strconv.Quote(text)))
	e.markSubmitted(ps)
}

// Pause stops the idle actions of a process until Resume; a cycle in
// progress waits where it is.
func (e *Engine) Pause(name string) (*IdleStatus, error) {
	return e.setIdlePaused(name, true)
}

// Resume restarts the idle actions of a process: a cycle in progress goes on
// at the next ready, and a ready process starts counting `after` again.
func (e *Engine) Resume(name string) (*IdleStatus, error) {
	return e.setIdlePaused(name, false)
}

func (e *Engine) setIdlePaused(name string, paused bool) (*IdleStatus, error) {
	var out *IdleStatus
	err := e.onProc(name, func(ps *procState) error {
		st := ps.idle
		if st == nil {
			return fmt.Errorf("%w: %s has no onIdle in procs.yaml", ErrNoIdleActions, name)
		}
		if st.paused != paused {
			st.paused = paused
			if paused {
				st.disarm()
				e.infoOf(ps, rules.ReasonIdle, "idle actions paused")
			} else {
				e.infoOf(ps, rules.ReasonIdle, "idle actions resumed")
				e.idleOnState(ps, "")
			}
		}
		out = st.status()
		return nil
	})
	return out, err
}
