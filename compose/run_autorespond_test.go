package compose

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	r := newResponder([]config.AutoRespond{{Match: `Do you trust`, Send: "\r", MaxTimes: 2}})
	screen := rules.NewScreen(40, 5)
	now := time.Now()
	due := func() int { return len(r.screen(screen, now)) }

	assert.Empty(t, r.line("Do you trust the files?", true), "a PTY's dialog is answered from its screen")
	_, _ = screen.Write([]byte("Do you trust the files?"))
	require.Equal(t, 1, due(), "a new dialog waits for its screen to settle")
	rule := r.rules[0]
	assert.Equal(t, answerSettle, rule.settleDelay(now))
	assert.Equal(t, 100*time.Millisecond, rule.settleDelay(now.Add(answerSettleMax-100*time.Millisecond)),
		"a screen that never goes quiet: answered answerSettleMax after the dialog came at the latest")
	assert.Equal(t, time.Duration(0), rule.settleDelay(now.Add(time.Minute)))
	_, ok, _ := r.settled(rule, rule.gen-1, screen, now)
	assert.False(t, ok, "a timer of an older screen is stale")
	a, ok, again := r.settled(rule, rule.gen, screen, now)
	require.True(t, ok)
	assert.Equal(t, "\r", a.keys)
	assert.Equal(t, answerRetry, again)
	_, ok, wait := r.settled(rule, rule.gen, screen, now.Add(time.Second))
	assert.False(t, ok, "not again so soon")
	assert.Equal(t, time.Second, wait)
	for try := 2; try <= answerTries; try++ {
		a, ok, _ = r.settled(rule, rule.gen, screen, now.Add(time.Duration(try)*answerRetry))
		require.True(t, ok, "still on screen: sent again")
		assert.Contains(t, a.note, "try")
	}
	_, ok, _ = r.settled(rule, rule.gen, screen, now.Add(10*answerRetry))
	assert.False(t, ok, "bounded")
	assert.Equal(t, 0, due(), "no more tries for this dialog")

	_, _ = screen.Write([]byte("\x1b[2J\x1b[H> "))
	assert.Equal(t, 0, due(), "dialog gone")
	_, _ = screen.Write([]byte("\x1b[2J\x1b[HDo you trust the files?"))
	assert.Equal(t, 1, due(), "it came back: a second dialog")
	_, _ = screen.Write([]byte("\x1b[2J\x1b[H> "))
	assert.Equal(t, 0, due())
	_, _ = screen.Write([]byte("\x1b[2J\x1b[HDo you trust the files?"))
	assert.Equal(t, 0, due(), "maxTimes: 2 dialogs answered")
	row, ok := screen.Find(regexp.MustCompile(`trust`))
	assert.True(t, ok)
	assert.Equal(t, "Do you trust the files?", row)
}

// TestMenuStep picks an option by its text on the screens of real menus.
func TestMenuStep(t *testing.T) {
	yes := regexp.MustCompile(regexp.QuoteMeta("Yes, I trust this folder"))
	for _, tc := range []struct {
		name  string
		rows  []string
		keys  string
		enter bool
	}{
		// Claude Code 2.1.330: the default is "No, exit".
		{"default elsewhere", []string{" Security guide", "", " ❯ No, exit", "   Yes, I trust this folder", "", " Enter to confirm · Esc to cancel"}, "\x1b[B", false},
		{"selected", []string{" Security guide", "", "   No, exit", " ❯ Yes, I trust this folder"}, "\r", true},
		// Claude Code 2.1.197: numbered, the default is Yes.
		{"numbered, selected", []string{" ❯ 1. Yes, I trust this folder", "   2. No, exit"}, "\r", true},
		{"above", []string{"   1. Yes, I trust this folder", " ❯ 2. No, exit"}, "\x1b[A", false},
		{"numbered, no mark", []string{"   1. No, exit", "   2. Yes, I trust this folder"}, "2", true},
		{"a prompt is not a selection", []string{"> ", "   Yes, I trust this folder"}, "\x1b[B", false},
		{"not on screen", []string{" ❯ No, exit"}, "", false},
		// Gemini CLI 0.61 draws its menu in a box; Codex 0.169 marks with ">".
		{"in a box", []string{" │ Do you trust the files in this folder?   │", " │   1. Trust parent folder (tmp)   │", " │ ● 2. Yes, I trust this folder  │"}, "\r", true},
		{"in a box, below", []string{" │ ● 1. Trust folder (x)   │", " │   2. Yes, I trust this folder  │"}, "\x1b[B", false},
		{"codex", []string{"> 1. Sign in with ChatGPT", "   Usage included", "  2. Yes, I trust this folder"}, "\x1b[B", false},
		{"the question holds the text too", []string{" Yes, I trust this folder? Pick one", " ❯ 1. No", "   2. Yes, I trust this folder"}, "\x1b[B", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys, enter, _ := menuStep(tc.rows, yes)
			assert.Equal(t, tc.keys, keys)
			assert.Equal(t, tc.enter, enter)
		})
	}
}

// TestMenuStepPicksTheOptionNamed: Claude Code's theme picker, where
// "Dark mode" begins three options.
func TestMenuStepPicksTheOptionNamed(t *testing.T) {
	rows := []string{" Choose the text style that looks best with your terminal", "",
		" ❯ 1. Auto (match terminal)", "   2. Dark mode", "   3. Light mode", "   4. Dark mode (colorblind-friendly)",
		"   5. Light mode (colorblind-friendly)", "   6. Dark mode (ANSI colors only)"}
	dark := regexp.MustCompile(regexp.QuoteMeta("Dark mode"))
	assert.Equal(t, 3, optionRow(rows, dark))
	keys, _, _ := menuStep(rows, dark)
	assert.Equal(t, "\x1b[B", keys)
	assert.Equal(t, 2, optionRow(rows, regexp.MustCompile("Auto")), "a label that starts with the text")
	assert.Equal(t, "Dark mode (ANSI colors only)", optionLabel(rows[7]))
	assert.Equal(t, "Trust folder (x)", optionLabel(" │ ● 1. Trust folder (x)   │"))
}

// trustDialog draws a menu like Claude Code 2.1.330's folder trust dialog
// (default "No, exit"), slowly, dropping keys that arrive while it draws
// and the first Enter it gets (an answer that is lost): Enter on No exits 1.
const trustDialog = `
import os, sys, termios, time, tty
tty.setraw(0)
out = lambda s: os.write(1, s.encode())
sel, opts, drops = 0, ["No, exit", "Yes, I trust this folder"], 1
def draw():
    out("\x1b[2J\x1b[H Quick safety check: Is this a project you trust?\r\n\r\n")
    time.sleep(0.2)
    for i, o in enumerate(opts):
        out((" \u276f " if i == sel else "   ") + o + "\r\n")
    out("\r\n Enter to confirm · Esc to cancel")
    termios.tcflush(0, termios.TCIFLUSH)
draw()
while True:
    key = os.read(0, 16).decode()
    if key == "\x1b[B": sel = min(sel + 1, 1)
    elif key == "\x1b[A": sel = max(sel - 1, 0)
    elif key == "\r":
        if drops:
            drops -= 1
            continue
        if sel == 0: sys.exit(1)
        break
    draw()
out("\x1b[2J\x1b[Htrusted\r\n> ")
while True:
    os.read(0, 16)
`

func TestAutoRespondChoosesTheOptionOnceSettled(t *testing.T) {
	needProgram(t, "python3")
	script := filepath.Join(t.TempDir(), "trust.py")
	require.NoError(t, os.WriteFile(script, []byte(trustDialog), 0o644))
	te := startEngine(t, fmt.Sprintf(`
procs:
  agent:
    command: [python3, %q]
    interactive: true
    readyPatterns: ['^> ?$']
    notReadyPatterns: ['Quick safety check']
    autoRespond:
      - match: 'Quick safety check'
        choose: 'Yes, I trust this folder'
        once: true
`, script), Options{NoWatchdog: true})
	moved := te.waitInfo("agent", "moving the selection down")
	assert.Contains(t, moved.Message, `chose "Yes, I trust this folder"`)
	te.waitInfo("agent", "still on screen: try 2")
	te.waitState("agent", rules.StateReady)
	scr, err := te.Screen(context.Background(), "agent")
	require.NoError(t, err)
	assert.Contains(t, scr.Text, "trusted")
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
