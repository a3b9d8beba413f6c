package compose

import (
	"context"
	"fmt"
	"strings"
)

// endsWithEnter reports whether text ends with Enter (\r or \n).
func endsWithEnter(text string) bool {
	return strings.HasSuffix(text, "\r") || strings.HasSuffix(text, "\n")
}

// splitEnter returns text without its final Enter, and whether there is
// text before that Enter to write on its own.
func splitEnter(text []byte) ([]byte, bool) {
	if !endsWithEnter(string(text)) {
		return text, false
	}
	body := text[:len(text)-1]
	if len(body) > 0 && body[len(body)-1] == '\r' {
		body = body[:len(body)-1] // \r\n
	}
	return body, len(body) > 0
}

// Input writes text to the process's stdin or terminal and returns once it
// is written. An interactive process that is not ready for input refuses
// text with *NotReadyForInputError unless force is set; keys (Ctrl-C, Esc,
// arrows, Enter alone) are always accepted: they are how a person stops
// or steers a busy program. Text ending with Enter, sent to an interactive
// process, makes it busy until it answers, so a `procs wait --for ready`
// right after waits for the answer, not for the prompt that was already
// there; its Enter is written on its own once the text is echoed. Text
// sent to an agent whose CLI waits in a permission request through procs'
// MCP server (AskPermission) answers that request instead.
func (e *Engine) Input(ctx context.Context, name string, text []byte, force bool) error {
	var sup *supervisor
	var submit, interactive, answered bool
	if err := e.onProc(name, func(ps *procState) error {
		if len(ps.asks) > 0 && !keysOnly(text) {
			// The agent waits in a call to procs' MCP server: the text
			// answers it there, not on the agent's input.
			e.answerAsk(ps, permissionDecision(ps.asks[0], string(text)))
			answered = true
			return nil
		}
		switch {
		case ps.sup == nil:
			return fmt.Errorf("%s is not running (state %s)", name, ps.state())
		case ps.drivenByInput() && !force && !ps.acceptsText() && !keysOnly(text):
			return &NotReadyForInputError{Name: name, State: ps.state(), Message: ps.life.Message}
		}
		sup, interactive = ps.sup, ps.interactive()
		submit = interactive && endsWithEnter(string(text))
		if ps.detect.AgentProtocol != "" && !keysOnly(text) {
			// A JSON-mode agent reads protocol messages, not keystrokes.
			data, err := agentInput(ps, text)
			if err != nil {
				return err
			}
			text, submit = data, true
		}
		if submit {
			e.markSubmitted(ps)
		}
		return nil
	}); err != nil || answered {
		return err
	}
	// Written by the run loop's writer: a child that does not read its
	// input never stalls the engine.
	req := inputRequest{data: text, submit: submit}
	if body, ok := splitEnter(text); ok && interactive {
		req.data, req.enterAfter = body, true
	}
	return sup.submit(ctx, req)
}

// markSubmitted makes an interactive process that was waiting for input
// busy at once, in the engine, when input with Enter is sent: a `procs wait
// --for ready` issued as soon as the send returns must wait for the answer,
// not see the prompt that was there before. Detection confirms it (same
// state and reason, no second event) and later reports the answer.
func (e *Engine) markSubmitted(ps *procState) {
	e.life.Submitted(ps.cfg.Name)
}
