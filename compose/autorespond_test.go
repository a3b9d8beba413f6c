package compose

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

func TestResponderLines(t *testing.T) {
	r := newResponder([]config.AutoRespond{
		{Match: `Continue\?`, Send: "y\n", MaxTimes: 2},
		{Match: `^Password:`, Send: "secret\n", Once: true},
	})
	fired := func(text string, pty bool) []string {
		var out []string
		for _, a := range r.line(text, pty) {
			out = append(out, a.rule.cfg.Send)
		}
		return out
	}
	assert.Equal(t, []string{"y\n"}, fired("Continue? [y/N]", false))
	assert.Nil(t, fired("nothing to answer", false))
	assert.Equal(t, []string{"y\n"}, fired("Continue? [y/N]", false), "each line of a pipe is a new question")
	assert.Nil(t, fired("Continue? [y/N]", false), "maxTimes reached")
	assert.Equal(t, []string{"secret\n"}, fired("Password:", false))
	assert.Nil(t, fired("Password:", false), "once")
}

func TestResponderScreenEdges(t *testing.T) {
	r := newResponder([]config.AutoRespond{{Match: `Do you trust`, Send: "\r"}})
	screen := rules.NewScreen(40, 5)
	fire := func() int { return len(r.screen(screen)) }

	assert.Len(t, r.line("Do you trust the files?", true), 1, "seen as a line first")
	_, _ = screen.Write([]byte("Do you trust the files?"))
	assert.Equal(t, 0, fire(), "the same dialog on screen is not answered twice")
	_, _ = screen.Write([]byte("\x1b[2J\x1b[H> "))
	assert.Equal(t, 0, fire(), "dialog gone")
	_, _ = screen.Write([]byte("\x1b[2J\x1b[HDo you trust the files?"))
	assert.Equal(t, 1, fire(), "it came back: answered again")
	assert.Equal(t, 0, fire(), "while it stays, once")
	row, ok := screen.Find(regexp.MustCompile(`trust`))
	assert.True(t, ok)
	assert.Equal(t, "Do you trust the files?", row)
}

func TestAutoRespondOnPipes(t *testing.T) {
	te := startEngine(t, `
procs:
  ask:
    command: "echo 'Continue? [y/N]'; read answer; echo got $answer; sleep 60"
    readyPatterns: ['^got y$']
    autoRespond:
      - {match: 'Continue\?', send: "y\n"}
`, Options{NoWatchdog: true})
	ev := te.waitInfo("ask", "autoRespond")
	assert.Contains(t, ev.Message, `"Continue? [y/N]" matched /Continue\?/, sent "y\n"`)
	te.waitState("ask", rules.StateReady)
}
