package agentstream

import (
	"fmt"
	"strings"
)

// Render is a line of protocol p as people read a conversation: the
// assistant's text, a tool call on one line, the result with what it
// spent. Lines that say nothing to a reader (deltas, hooks) render as
// nothing (ok true, text ""); a line that is not JSON is not the
// protocol's (ok false), and is shown as it is.
func (p Protocol) Render(line string) (text string, ok bool) {
	events, ok := p.Decode(line)
	if !ok {
		return "", false
	}
	var out []string
	for _, ev := range events {
		if s := renderEvent(ev); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n"), true
}

func renderEvent(ev Event) string {
	switch ev.Kind {
	case KindInit:
		return strings.TrimSpace(fmt.Sprintf("● session %s %s", ev.Session, ev.Model))
	case KindTurn:
		if ev.Text != "" {
			return "> " + ev.Text
		}
	case KindText:
		return ev.Text
	case KindTool:
		return strings.TrimSpace(fmt.Sprintf("⏺ %s %s", ev.Tool, ev.Input))
	case KindToolResult:
		if ev.IsError {
			return "  ⎿ error: " + ev.Text
		}
		if ev.Text != "" {
			return "  ⎿ " + ev.Text
		}
	case KindPermission:
		return strings.TrimSpace(fmt.Sprintf("? asks to use %s %s (answer: procs send NAME yes|no)", ev.Tool, ev.Input))
	case KindWarning:
		return "! " + ev.Text
	case KindResult:
		word := "done"
		if ev.IsError {
			word = "error"
		}
		s := "✔ " + word
		if ev.IsError {
			s = "✘ " + word
		}
		if spent := ev.Usage.String(); spent != "" {
			s += " (" + spent + ")"
		}
		if ev.IsError && ev.Text != "" {
			s += ": " + ev.Text
		}
		return s
	}
	return ""
}

// String is what u spent in a few words: "$0.0123, 1200 in / 340 out
// tokens", "" when nothing.
func (u Usage) String() string {
	var parts []string
	if u.CostUSD > 0 {
		parts = append(parts, fmt.Sprintf("$%.4f", u.CostUSD))
	}
	if u.InputTokens > 0 || u.OutputTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d in / %d out tokens", u.InputTokens+u.CacheReadTokens+u.CacheWriteTokens, u.OutputTokens))
	}
	return strings.Join(parts, ", ")
}
