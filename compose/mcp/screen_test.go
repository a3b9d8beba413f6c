package mcp

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/wire"
)

// TestAgentDrivesAREPLWithScreenAndKeys is an agent at a python REPL: it
// reads the screen, starts something slow, and interrupts it with a named
// key while it is busy.
func TestAgentDrivesAREPLWithScreenAndKeys(t *testing.T) {
	dir := t.TempDir()
	mustStartProcs(t, dir, `
procs:
  py: {command: python3 -i -q, env: {PYTHONSTARTUP: ""}}
`)
	c := connect(t, Options{Dir: dir})
	c.waitReady(t, "py")
	succeed[InputSent](t, c, "send_input", map[string]any{"name": "py", "text": "print(6*7)", "enter": true})
	c.waitReady(t, "py")
	screen := succeed[wire.ScreenText](t, c, "get_screen", map[string]any{"name": "py"})
	assert.Contains(t, screen.Text, "\n42\n>>>", "the screen as a person sees it")

	succeed[InputSent](t, c, "send_input", map[string]any{"name": "py", "text": "import time; time.sleep(60)", "enter": true})
	// Busy: text is refused, a key is not.
	require.Eventually(t, func() bool {
		s := succeed[wire.ScreenText](t, c, "get_screen", map[string]any{"name": "py"})
		return strings.Contains(s.Text, "time.sleep(60)")
	}, 20*time.Second, 20*time.Millisecond)
	succeed[InputSent](t, c, "send_input", map[string]any{"name": "py", "keys": []string{"ctrl-c"}})
	c.waitReady(t, "py")
	screen = succeed[wire.ScreenText](t, c, "get_screen", map[string]any{"name": "py"})
	assert.Contains(t, screen.Text, "KeyboardInterrupt")
}

// TestWaitForReadyReturnsADialogAtOnce: an agent waiting for ready hears at
// once that the process asks a question, instead of at its timeout.
func TestWaitForReadyReturnsADialogAtOnce(t *testing.T) {
	dir := t.TempDir()
	mustStartProcs(t, dir, `
procs:
  py: {command: python3 -i -q, env: {PYTHONSTARTUP: ""}}
`)
	c := connect(t, Options{Dir: dir})
	c.waitReady(t, "py")
	succeed[InputSent](t, c, "send_input", map[string]any{"name": "py", "text": "name = input('name? ')", "enter": true})
	res := succeed[Result](t, c, "wait_for_ready", map[string]any{"name": "py", "timeout": "60s"})
	assert.Equal(t, "awaiting-input", string(res.State))
	assert.Contains(t, res.Message, "name?")
	succeed[InputSent](t, c, "send_input", map[string]any{"name": "py", "text": "bob", "enter": true})
	res = succeed[Result](t, c, "wait_for_ready", map[string]any{"name": "py", "for": []string{"ready"}})
	assert.Equal(t, "ready", string(res.State))
}
