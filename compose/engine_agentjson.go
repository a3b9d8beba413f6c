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
func agentMode(p agentstream.Protocol) string {
	mode := "agent JSON mode (" + string(p) + "): its state, answer and spending come from the protocol's events"
	if p.TakesInput() {
		mode += "; procs send writes prompts as protocol messages"
	}
	return mode
}

// agentState is what the engine keeps of a process run in an agent CLI's
// JSON mode, over its runs. Only the engine goroutine touches it.
type agentState struct {
	// last is the latest report of the current (or last) run; before is
	// what the runs before it spent.
	last   *rules.AgentReport
	before agentstream.Usage
	run    int
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
		st.before.Add(st.last.Spent)
	}
	st.run, st.last = run, v.Agent
	e.agentAnswered(ps, v)
}

// agentInput is text sent to a process in an agent's JSON mode, as its
// protocol takes it: a user message, or the answer to the permission
// request it waits on ("yes", or a reason to deny).
func agentInput(ps *procState, text []byte) ([]byte, error) {
	protocol := ps.detect.AgentProtocol
	if !protocol.TakesInput() {
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
	out := &AgentStatus{Protocol: string(ps.detect.AgentProtocol), TakesInput: ps.detect.AgentProtocol.TakesInput(), Asks: len(ps.asks)}
	st := ps.agent
	if st == nil || st.last == nil {
		return out
	}
	out.Session, out.Model, out.Answer = st.last.Session, st.last.Model, st.last.Answer
	out.Run = st.last.Spent
	out.Total = st.before
	out.Total.Add(st.last.Spent)
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
	total.Add(st.last.Spent)
	return total
}

// cycleSpent says what an onIdle cycle of an agent spent, "" when nothing
// is known.
func cycleSpent(ps *procState) string {
	if ps.idle == nil || ps.agent == nil {
		return ""
	}
	spent := ps.agentSpent()
	at := ps.idle.spentAt
	cycle := agentstream.Usage{CostUSD: spent.CostUSD - at.CostUSD, InputTokens: spent.InputTokens - at.InputTokens,
		OutputTokens: spent.OutputTokens - at.OutputTokens, CacheReadTokens: spent.CacheReadTokens - at.CacheReadTokens,
		CacheWriteTokens: spent.CacheWriteTokens - at.CacheWriteTokens, Turns: spent.Turns - at.Turns}
	if s := cycle.String(); s != "" {
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
	return ps.interactive() || (ps.detect != nil && ps.detect.AgentProtocol.TakesInput() && !ps.cfg.IsTask())
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
