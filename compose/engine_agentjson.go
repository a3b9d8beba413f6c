package compose

import (
	"errors"
	"fmt"
	"strings"

	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
	"github.com/procsdev/procs/rules/agentstream"
)

// ErrOneShotAgent is returned when text is sent to an agent CLI whose JSON
// mode takes its one prompt on its command line (codex exec, gemini -p,
// opencode run): it reads nothing while it runs.
var ErrOneShotAgent = errors.New("takes its prompt on its command line, not on its input")

// agentMode is what procs detect says of a process run in its JSON mode.
func agentMode(spec *rules.Spec) string {
	mode := "agent JSON mode (" + string(spec.AgentProtocol) + "): its state, answer and spending come from the protocol's events"
	if spec.AgentInput {
		return mode + "; procs send writes prompts as protocol messages"
	}
	return mode + "; it runs the one prompt of its command line, and its final result decides (procs send does not apply)"
}

// agentState is what the engine keeps of a process run in an agent CLI's
// JSON mode, over its runs. Only the engine goroutine touches it.
type agentState struct {
	// last is the latest report of the current (or last) run; before is
	// what the runs before it spent.
	last   *rules.AgentReport
	before agentstream.Usage
	run    int
	// resumed is what the session this run resumed had reported before it
	// (Claude Code's --continue and --resume restore the session's cost
	// tracker, and its results report it: Protocol.SessionTotals); the
	// run spent only what its reports add to it. previous is the last
	// report of a run before that said what its session had spent: the
	// figures a run that resumes that session starts from.
	resumed  agentstream.Usage
	previous *rules.AgentReport
}

// ended keeps what the run that ended last left its session at. Claude
// Code 2.1.197 keeps the project's last session and what it had spent when
// it exits, and restores them when that session is resumed: a run that
// ended before it said its session, or before any result of the session
// it resumed, left them as they were.
func (st *agentState) ended() {
	last, prev := st.last, st.previous
	if last.Session == "" || (prev != nil && last.Session == prev.Session && last.Spent.IsZero()) {
		return
	}
	st.previous = last
}

// runSpent is what the current (or last) run spent.
func (st *agentState) runSpent() agentstream.Usage {
	return st.last.Spent.Sub(st.resumed)
}

// noteAgent keeps what a verdict of run says of the agent's session.
func (e *Engine) noteAgent(ps *procState, run int, v rules.Verdict) {
	if v.Agent == nil {
		return
	}
	st := ps.agent
	if st == nil {
		st = &agentState{}
		ps.agent = st
	}
	if st.run != run && st.last != nil {
		st.before.Add(st.runSpent())
		st.ended()
		st.resumed = agentstream.Usage{}
	}
	st.run, st.last = run, v.Agent
	if p := st.previous; p != nil && st.resumed.IsZero() && p.Session != "" && p.Session == v.Agent.Session &&
		v.Agent.Protocol.SessionTotals() {
		// Turns are counted per result, never restored: keep them.
		st.resumed = p.Spent
		st.resumed.Turns = 0
	}
	e.agentAnswered(ps, v)
}

// agentInput is text sent to a process in an agent's JSON mode, as its
// protocol takes it: a user message, or the answer to the permission
// request it waits on ("yes", or a reason to deny).
func agentInput(ps *procState, text []byte) ([]byte, error) {
	protocol := ps.detect.AgentProtocol
	if !ps.detect.AgentInput {
		return nil, fmt.Errorf("%s: %s %w", ps.cfg.Name, protocol, ErrOneShotAgent)
	}
	body := strings.TrimRight(string(text), "\r\n")
	if st := ps.agent; st != nil && st.last != nil && st.last.Asking != nil && !st.last.Asking.External && ps.state() == rules.StateAwaitingPermission {
		return agentstream.PermissionAnswer(*st.last.Asking, agentstream.Allows(body), body), nil
	}
	return agentstream.UserMessage(body), nil
}

// AgentStatus is what status shows of a process in an agent's JSON mode
// (wire.AgentStatus).
type AgentStatus = wire.AgentStatus

// agentStatus is the status of ps's agent session; nil for other processes.
func (ps *procState) agentStatus() *AgentStatus {
	if ps.detect == nil || ps.detect.AgentProtocol == "" {
		return nil
	}
	out := &AgentStatus{Protocol: string(ps.detect.AgentProtocol), TakesInput: ps.detect.AgentInput, Asks: len(ps.asks)}
	st := ps.agent
	if st == nil || st.last == nil {
		return out
	}
	out.Session, out.Model, out.Answer = st.last.Session, st.last.Model, st.last.Answer
	out.Run = st.runSpent()
	out.Total = st.before
	out.Total.Add(out.Run)
	if st.last.Asking != nil {
		out.Asking = strings.TrimSpace(st.last.Asking.Tool + " " + st.last.Asking.Input)
	}
	return out
}

// agentSpent is what the agent has spent over all its runs.
func (ps *procState) agentSpent() agentstream.Usage {
	st := ps.agent
	if st == nil || st.last == nil {
		return agentstream.Usage{}
	}
	total := st.before
	total.Add(st.runSpent())
	return total
}

// cycleSpent says what an onIdle cycle of an agent spent, "" when nothing
// is known.
func cycleSpent(ps *procState) string {
	if ps.idle == nil || ps.agent == nil {
		return ""
	}
	if s := ps.agentSpent().Sub(ps.idle.spentAt).String(); s != "" {
		return " (spent " + s + ")"
	}
	return ""
}

// agentAnswered ends the onIdle cycles of an agent whose answer holds its
// completeWhen marker (Claudeman's <promise>DONE</promise>).
func (e *Engine) agentAnswered(ps *procState, v rules.Verdict) {
	marker, st := ps.cfg.CompleteWhen, ps.idle
	if marker == "" || v.State != rules.StateReady || !strings.Contains(v.Agent.Answer, marker) {
		return
	}
	if st == nil || st.completed {
		return
	}
	st.completed, st.inCycle, st.next = true, false, 0
	st.cycles++
	st.disarm()
	e.infoOf(ps, rules.ReasonIdle, fmt.Sprintf("idle cycle %d completed: the agent wrote %q%s; no more idle actions", st.cycles, marker, cycleSpent(ps)))
}

// drivenByInput says the lifecycle treats ps as a program people drive:
// an interactive one, or an agent session that takes prompts. An error
// (on its screen, or an error result) leaves it running and usable.
func (ps *procState) drivenByInput() bool {
	return ps.interactive() || (ps.detect != nil && ps.detect.AgentInput && !ps.cfg.IsTask())
}

// acceptsText says whether a process driven by input takes text now: at
// its prompt or a question; an agent session also after an error result,
// which ends the turn, not the session.
func (ps *procState) acceptsText() bool {
	if ps.detect.AgentProtocol != "" && ps.state() == rules.StateFailed && !ps.life.Recoverable {
		return true
	}
	return lifecycle.AcceptsInput(ps.state())
}
