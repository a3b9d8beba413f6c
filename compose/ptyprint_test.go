package compose

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/rules"
)

func TestKeepColors(t *testing.T) {
	for raw, want := range map[string]string{
		"plain\ttext":                                    "plain\ttext",
		"\x1b[1;32mgreen\x1b[0m":                         "\x1b[1;32mgreen\x1b[0m",
		"\x1b[2J\x1b[Hfull \x1b[5;1Hscreen":              "full screen",
		"\x1b]0;title\x07\x1b[?25lhidden cursor":         "hidden cursor",
		"\x1b7save\x1b8 \x1b(Bcharset\x1b[38;5;200m":     "save charset\x1b[38;5;200m",
		"bell\x07 and backspace\b":                       "bell and backspace",
		"\x1b[2K\x1b[1A\x1b[2K\x1b[G✓ café 👍🏽 e\u0301\r": "✓ café 👍🏽 e\u0301",
	} {
		assert.Equal(t, want, string(keepColors([]byte(raw))), "%q", raw)
	}
}

func TestStateTextOfAnAgentBackAtItsPrompt(t *testing.T) {
	ev := Event{Type: EventState, Proc: "agent", From: rules.StateBusy, To: rules.StateReady, Message: `idle at prompt "❯"`, DurationMs: 1500}
	assert.Equal(t, `agent ready (idle at prompt "❯")`, StateText(ev))
	ev.From = rules.StateStarting
	assert.Equal(t, `agent ready in 1.5s (idle at prompt "❯")`, StateText(ev))
}
