package compose

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// lineAgent is a line-oriented agent: a `> ` prompt, a [y/n] question
// before it runs a command, and "later", whose note comes after the prompt
// is back, as a background job's output does.
const lineAgent = `
import os, sys, threading, time
def note():
    time.sleep(0.3)
    os.write(1, b"\r\nbackground: done\r\n> ")
while True:
    line = input("> ")
    if line == "quit":
        sys.exit(0)
    if line == "later":
        threading.Thread(target=note, daemon=True).start()
        continue
    answer = input("Allow command ` + "`%s`" + `? [y/n] " % line)
    print("ran %s: %s" % (line, "ok" if answer == "y" else "refused"))
`

func startLineAgent(t *testing.T) *testEngine {
	needProgram(t, "python3")
	script := filepath.Join(t.TempDir(), "agent.py")
	require.NoError(t, os.WriteFile(script, []byte(lineAgent), 0o644))
	return startEngine(t, fmt.Sprintf(`
procs:
  agent:
    command: [python3, %q]
    interactive: true
    readyPatterns: ['^> ?$']
    permissionPatterns: ['\[y/n\]']
`, script), Options{NoWatchdog: true})
}

// TestResultTakesTheScreenWhenItReturns: a
// wait's logs are the screen of the moment it returns, and its message
// tells this wait, not the run's start-up.
func TestResultTakesTheScreenWhenItReturns(t *testing.T) {
	te := startLineAgent(t)
	te.expectStates("agent", rules.StateStarting, ready)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	first, err := te.Wait(ctx, "agent", []rules.State{ready}, 0)
	require.NoError(t, err)
	assert.Regexp(t, `^ready in \d`, first.Message, "the first ready is the start-up")

	te.sendOK("agent", "ls\r")
	te.expectStates("agent", busy, rules.StateAwaitingPermission)
	te.sendOK("agent", "y\r")
	res, err := te.Wait(ctx, "agent", []rules.State{ready}, 0)
	require.NoError(t, err)
	assert.Contains(t, res.Logs, "ran ls: ok", "the line printed after the answer")
	assert.NotContains(t, res.Message, "ready in", "a later ready is not the start-up: %q", res.Message)

	// Output that changes no state: the note printed after the prompt.
	te.sendOK("agent", "later\r")
	te.expectStates("agent", busy, ready)
	require.Eventually(t, func() bool {
		scr, err := te.Screen(context.Background(), "agent")
		return err == nil && strings.Contains(scr.Text, "background: done")
	}, waitLimit, 20*time.Millisecond)
	res, err = te.Wait(ctx, "agent", []rules.State{ready}, 0)
	require.NoError(t, err)
	assert.Contains(t, res.Logs, "background: done", "the screen when the result is built, not at the last verdict")
	assert.Regexp(t, `^ready already, for \d`, res.Message)
}
