package compose

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules/agentstream"
)

// permissionAsk is a permission request of an agent CLI that came through
// procs' MCP server (Claude Code's --permission-prompt-tool calls it): the
// CLI waits, blocked in that call, until a person answers with procs send,
// the web page or MCP's send_input. Only the engine goroutine touches it.
type permissionAsk struct {
	run   int
	ask   agentstream.Event
	input []byte
	// reply receives the one answer: sized so the engine never waits for
	// the asker, who may have left.
	reply chan wire.PermissionDecision
}

// permissionNote tells a run loop's detection that a request is asked
// (ask), or that the one it showed was answered or withdrawn (ask nil).
type permissionNote struct {
	ask *agentstream.Event
}

// AskPermission puts the agent process name in awaiting-permission with
// req and waits until someone answers it (Input), the run ends or procs
// stops (a denial saying so), or ctx ends (the asker went away: the
// request is withdrawn and the agent is busy again). Requests of one
// process are answered in the order they came.
func (e *Engine) AskPermission(ctx context.Context, name string, req wire.PermissionRequest) (wire.PermissionDecision, error) {
	pending := &permissionAsk{
		ask:   agentstream.PermissionAsked(req.Tool, req.Input, req.ToolUseID),
		input: req.Input,
		reply: make(chan wire.PermissionDecision, 1),
	}
	var sup *supervisor
	if err := e.onProc(name, func(ps *procState) error {
		switch {
		case ps.detect == nil || ps.detect.AgentProtocol == "":
			return fmt.Errorf("%s %w", name, wire.ErrNotAgentSession)
		case ps.sup == nil:
			return fmt.Errorf("%s is not running (state %s)", name, ps.state())
		case req.Run != 0 && req.Run != ps.life.Run:
			return fmt.Errorf("run %d of %s has ended (it runs run %d)", req.Run, name, ps.life.Run)
		}
		pending.run, sup = ps.life.Run, ps.sup
		ps.asks = append(ps.asks, pending)
		if len(ps.asks) == 1 {
			e.showAsk(ps)
		}
		return nil
	}); err != nil {
		return wire.DenyPermission(err.Error()), err
	}
	select {
	case d := <-pending.reply:
		return d, nil
	case <-sup.done:
		// The engine denies it too when the exit reaches it; whichever
		// comes first answers.
		return wire.DenyPermission(name + " stopped before anyone answered"), nil
	case <-e.stopped:
		return wire.DenyPermission(wire.ErrShuttingDown.Error()), nil
	case <-ctx.Done():
		_ = e.onProc(name, func(ps *procState) error {
			e.dropAsk(ps, pending)
			return nil
		})
		return wire.DenyPermission("the request was withdrawn"), ctx.Err()
	}
}

// showAsk tells the run's detection about the first request waiting, or
// that none waits any more.
func (e *Engine) showAsk(ps *procState) {
	if ps.sup == nil {
		return
	}
	note := &permissionNote{}
	if len(ps.asks) > 0 && ps.asks[0].run == ps.life.Run {
		ask := ps.asks[0].ask
		note.ask = &ask
	}
	if !ps.sup.queueInput(inputRequest{permission: note}) && note.ask != nil {
		// The run has not read its requests for long: it will not see
		// this one either.
		e.answerAsk(ps, wire.DenyPermission(ps.cfg.Name+" is not taking requests"))
	}
}

// answerAsk answers the first request waiting and shows the next one.
func (e *Engine) answerAsk(ps *procState, d wire.PermissionDecision) {
	if len(ps.asks) == 0 {
		return
	}
	ps.asks[0].reply <- d
	ps.asks = ps.asks[1:]
	e.showAsk(ps)
}

// dropAsk forgets a request whose asker went away without an answer.
func (e *Engine) dropAsk(ps *procState, pending *permissionAsk) {
	i := slices.Index(ps.asks, pending)
	if i < 0 {
		return // answered meanwhile
	}
	pending.reply <- wire.DenyPermission("the request was withdrawn")
	ps.asks = slices.Delete(ps.asks, i, i+1)
	if i == 0 {
		e.showAsk(ps)
	}
}

// endAsks denies the requests of a run that ended.
func (e *Engine) endAsks(ps *procState, run int) {
	ps.asks = slices.DeleteFunc(ps.asks, func(a *permissionAsk) bool {
		if a.run != run {
			return false
		}
		a.reply <- wire.DenyPermission(fmt.Sprintf("%s stopped (run %d ended) before anyone answered", ps.cfg.Name, run))
		return true
	})
}

// permissionDecision reads a person's answer to a permission request as
// procs send takes it for one asked on the CLI's output: yes, y, allow
// allow the tool with its input as asked; anything else denies, that text
// the reason the agent reads.
func permissionDecision(pending *permissionAsk, answer string) wire.PermissionDecision {
	answer = strings.TrimSpace(answer)
	if agentstream.Allows(answer) {
		return wire.AllowPermission(pending.input)
	}
	switch strings.ToLower(answer) {
	case "", "n", "no", "deny":
		return wire.DenyPermission("the user denied this tool use")
	}
	return wire.DenyPermission(answer)
}
