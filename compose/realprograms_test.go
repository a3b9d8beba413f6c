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

// The interactive programs people run under procs, driven as a person or
// an agent drives them with procs send: each test asserts the sequence of
// states the engine published.

// expectStates collects the states name goes through (a repeat of the
// state before, with another reason, is not a new state) until it has as
// many as want, and checks they are want. It returns the last event.
func (te *testEngine) expectStates(name string, want ...rules.State) Event {
	te.t.Helper()
	var got []rules.State
	last := te.waitFor(fmt.Sprintf("%s states %v", name, want), func(ev Event) bool {
		if os.Getenv("PROCS_TRACE") == "all" && ev.Type == EventState {
			te.t.Logf("event %s %s->%s %s %q", ev.Proc, ev.From, ev.To, ev.Reason, ev.Message)
		}
		if ev.Type != EventState || ev.Proc != name || ev.From == ev.To {
			return false
		}
		got = append(got, ev.To)
		return len(got) == len(want) || got[len(got)-1] != want[len(got)-1]
	})
	if os.Getenv("PROCS_TRACE") != "" {
		te.t.Logf("%s: %v (%s)", name, got, last.Message)
	}
	require.Equal(te.t, want, got, "states of %s, the last %s: %q\n%s", name, last.Reason, last.Message, te.describe())
	return last
}

// waitSleeping waits until the main process of name sleeps in the kernel
// (time.sleep, sleep(1)), where the kernel tells (Linux); elsewhere it
// gives it a second.
func (te *testEngine) waitSleeping(name string) {
	te.t.Helper()
	st, err := te.StatusOf(name)
	require.NoError(te.t, err)
	wchan := fmt.Sprintf("/proc/%d/wchan", st.PID)
	if _, err := os.Stat(wchan); err != nil {
		time.Sleep(time.Second)
		return
	}
	require.Eventually(te.t, func() bool {
		data, err := os.ReadFile(wchan)
		return err == nil && strings.Contains(string(data), "nanosleep")
	}, waitLimit, 10*time.Millisecond, "%s never slept", name)
}

// sendOK sends input as procs send does (no --force), failing on a refusal.
func (te *testEngine) sendOK(name, text string) {
	te.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	require.NoError(te.t, te.Input(ctx, name, []byte(text), false), "send %q", text)
}

const (
	busy     = rules.StateBusy
	ready    = rules.StateReady
	question = rules.StateAwaitingInput
)

func TestRealPythonREPL(t *testing.T) {
	needProgram(t, "python3")
	te := startEngine(t, `
procs:
  py:
    command: python3 -i -q
    env: {PYTHONSTARTUP: ""}
`, Options{NoWatchdog: true})
	te.expectStates("py", rules.StateStarting, ready)

	te.sendOK("py", "import time; time.sleep(2)\r")
	te.expectStates("py", busy, ready)

	te.sendOK("py", "name = input('name? ')\r")
	ev := te.expectStates("py", busy, question)
	assert.Contains(t, ev.Message, "name?")
	te.sendOK("py", "bob\r")
	te.expectStates("py", busy, ready)

	te.sendOK("py", "a = input('first? '); b = input('second? ')\r")
	te.expectStates("py", busy, question)
	te.sendOK("py", "x\r")
	ev = te.expectStates("py", busy, question)
	assert.Contains(t, ev.Message, "second?", "the second question, not the first one above it")
	te.sendOK("py", "y\r")
	te.expectStates("py", busy, ready)

	te.sendOK("py", "time.sleep(60)\r")
	te.expectStates("py", busy)
	// CPython loses a SIGINT that arrives after its last check for
	// signals and before the sleep begins (the sleep is then not
	// interrupted): a person presses Ctrl-C again; the test waits until
	// python sleeps.
	te.waitSleeping("py")
	te.sendOK("py", "\x03") // no --force: keys are always accepted
	te.expectStates("py", ready)

	te.sendOK("py", "import sys; sys.exit(5)\r")
	ev = te.expectStates("py", busy, rules.StateFailed)
	assert.Contains(t, ev.Message, "exit code 5", "python is the process, not sh")
}

func TestRealPythonREPLExitZeroStops(t *testing.T) {
	needProgram(t, "python3")
	te := startEngine(t, `
procs:
  py: {command: python3 -i -q, env: {PYTHONSTARTUP: ""}}
`, Options{NoWatchdog: true})
	te.expectStates("py", rules.StateStarting, ready)
	te.sendOK("py", "exit()\r")
	ev := te.expectStates("py", busy, rules.StateStopped)
	assert.Equal(t, rules.ReasonUserExit, ev.Reason)
}

// shellConfig runs a shell with a plain prompt and no rc files.
func shellConfig(t *testing.T, command string) string {
	home := t.TempDir()
	return fmt.Sprintf(`
procs:
  sh:
    command: %s
    env: {PS1: "$ ", ENV: "", HOME: %q}
`, command, home)
}

func testRealShell(t *testing.T, command string) {
	te := startEngine(t, shellConfig(t, command), Options{NoWatchdog: true})
	te.expectStates("sh", rules.StateStarting, ready)

	te.sendOK("sh", "sleep 2\r")
	te.expectStates("sh", busy, ready)

	te.sendOK("sh", `read -p "name? " n`+"\r")
	te.expectStates("sh", busy, question)
	te.sendOK("sh", "bob\r")
	te.expectStates("sh", busy, ready)

	te.sendOK("sh", `read -p "first? " a; read -p "second? " b`+"\r")
	te.expectStates("sh", busy, question)
	te.sendOK("sh", "x\r")
	ev := te.expectStates("sh", busy, question)
	assert.Contains(t, ev.Message, "second?")
	te.sendOK("sh", "y\r")
	te.expectStates("sh", busy, ready)

	// Ctrl-C of a running command: back at a new prompt. The shell draws
	// it only once sleep has died; "^C" is echoed at once.
	te.sendOK("sh", "sleep 60\r")
	te.expectStates("sh", busy)
	te.waitForeground("sh", "sleep")
	te.sendOK("sh", "\x03") // no --force: keys are always accepted
	te.expectStates("sh", ready)

	te.sendOK("sh", "exit 5\r")
	ev = te.expectStates("sh", busy, rules.StateFailed)
	assert.Contains(t, ev.Message, "exit code 5")
}

// waitForeground waits until prog, started by name's shell, is the
// foreground of its terminal. Busy is shown as soon as a command is sent,
// but a Ctrl-C that arrives before the shell has handed the terminal to
// the command (between its fork and the exec) interrupts the shell, and
// the command then runs to its end: so it is in a terminal too, and a test
// must not race it.
func (te *testEngine) waitForeground(name, prog string) {
	te.t.Helper()
	st, err := te.StatusOf(name)
	require.NoError(te.t, err)
	require.Eventually(te.t, func() bool { return foregroundChild(st.PID, prog) }, waitLimit, 10*time.Millisecond,
		"%s never ran in the foreground of %s", prog, name)
}

// foregroundChild reports whether a child of pid runs prog as the
// foreground process group of its terminal.
func foregroundChild(pid int, prog string) bool {
	children, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return false
	}
	for _, child := range strings.Fields(string(children)) {
		stat, err := os.ReadFile("/proc/" + child + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp session tty_nr tpgid ...
		s := string(stat)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if s[open+1:end] == prog && len(fields) > 5 && fields[2] == fields[5] {
			return true
		}
	}
	return false
}

func TestRealBashInteractive(t *testing.T) {
	needProgram(t, "bash")
	testRealShell(t, "bash -i")
}

func TestRealShInteractive(t *testing.T) {
	needProgram(t, "sh")
	testRealShell(t, "sh -i")
}

// TestRealShellBareExitAfterAFailedCommand: a bare exit returns the status
// of the command before it; the user left the shell, and it is stopped,
// not failed (a restart policy on failure would bring it back).
func TestRealShellBareExitAfterAFailedCommand(t *testing.T) {
	for _, command := range []string{"bash -i", "sh -i"} {
		t.Run(command, func(t *testing.T) {
			te := startEngine(t, shellConfig(t, command), Options{NoWatchdog: true})
			te.expectStates("sh", rules.StateStarting, ready)
			te.sendOK("sh", "ls /nonexistent\r")
			te.expectStates("sh", busy, ready)
			te.sendOK("sh", "exit\r")
			ev := te.expectStates("sh", busy, rules.StateStopped)
			assert.Equal(t, rules.ReasonUserExit, ev.Reason)
			assert.Contains(t, ev.Message, "exit code 2")
		})
	}
}

func TestRealNodeREPL(t *testing.T) {
	needProgram(t, "node")
	te := startEngine(t, `
procs:
  node: {command: node, env: {NODE_NO_READLINE: ""}}
`, Options{NoWatchdog: true})
	te.expectStates("node", rules.StateStarting, ready)

	te.sendOK("node", "await new Promise(r => setTimeout(r, 2000))\r")
	te.expectStates("node", busy, ready)

	// Ctrl-C of a pending await: back at a new prompt. Busy is shown as
	// soon as the line is sent, before node runs it; under -race -count 2
	// on a loaded machine a Ctrl-C sent then was echoed ("^C") and node
	// drew no prompt in 10 s. The line prints once node runs it, and the
	// Ctrl-C waits for that, as the shell's waits for its command to be
	// in the foreground (testRealShell).
	te.sendOK("node", `console.log("wait" + "ing"); await new Promise(r => setTimeout(r, 60000))`+"\r")
	te.expectStates("node", busy)
	te.waitLine("node", "waiting")
	te.sendOK("node", "\x03")
	te.expectStates("node", ready)

	te.sendOK("node", "process.exit(5)\r")
	ev := te.expectStates("node", busy, rules.StateFailed)
	assert.Contains(t, ev.Message, "exit code 5")
}

// TestRealSqlitePromptWithoutPreset is a PTY process with no preset whose
// readyPattern is its prompt: the prompt has no newline, and the cursor
// row is matched.
func TestRealSqlitePromptWithoutPreset(t *testing.T) {
	needProgram(t, "sqlite3")
	te := startEngine(t, `
procs:
  db:
    command: sqlite3
    pty: true
    readyPatterns: ['^sqlite> $']
    readyTimeout: 20s
`, Options{NoWatchdog: true})
	te.expectStates("db", rules.StateStarting, ready)
}

func TestRealSqliteInteractive(t *testing.T) {
	needProgram(t, "sqlite3")
	db := filepath.Join(t.TempDir(), "x.db")
	te := startEngine(t, fmt.Sprintf(`
procs:
  db:
    command: sqlite3 %s
    interactive: true
    readyPatterns: ['^sqlite> $', '^   \.\.\.> $']
`, db), Options{NoWatchdog: true})
	te.expectStates("db", rules.StateStarting, ready)
	te.sendOK("db", "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 3000000) SELECT count(*) FROM c;\r")
	te.expectStates("db", busy, ready)
	te.sendOK("db", ".exit 5\r")
	ev := te.expectStates("db", busy, rules.StateFailed)
	assert.Contains(t, ev.Message, "exit code 5")
}

// TestRealGenericPromptPermission is a line-oriented agent of its own: a
// `> ` prompt, and a [y/n] question before it runs a command.
func TestRealGenericPromptPermission(t *testing.T) {
	needProgram(t, "python3")
	script := filepath.Join(t.TempDir(), "agent.py")
	require.NoError(t, os.WriteFile(script, []byte(`
import sys
while True:
    line = input("> ")
    if line == "quit":
        sys.exit(0)
    answer = input("Allow command `+"`%s`"+`? [y/n] " % line)
    print("ran %s: %s" % (line, "ok" if answer == "y" else "refused"))
`), 0o644))
	te := startEngine(t, fmt.Sprintf(`
procs:
  agent:
    command: [python3, %q]
    interactive: true
    readyPatterns: ['^> ?$']
    permissionPatterns: ['\[y/n\]']
`, script), Options{NoWatchdog: true})
	te.expectStates("agent", rules.StateStarting, ready)
	te.sendOK("agent", "ls\r")
	te.expectStates("agent", busy, rules.StateAwaitingPermission)
	te.sendOK("agent", "y\r")
	te.expectStates("agent", busy, ready)
	logs, err := te.Logs("agent", 0)
	require.NoError(t, err)
	assert.True(t, containsLine(logs, "ran ls: ok"))
}

// pasteComposer is a composer like Codex's and Gemini CLI's: text and Enter
// arriving in one read are a paste (the Enter becomes a newline in the
// composer); Enter arriving alone submits.
const pasteComposer = `
import os, sys, tty
tty.setraw(0)
out = lambda s: (os.write(1, s.encode()), None)
buf = ""
out("> ")
while True:
    data = os.read(0, 1024).decode()
    if data == "\r":
        if buf == "quit":
            sys.exit(0)
        out("\r\nworking...\r\n")
        import time; time.sleep(0.5)
        out("got: %s\r\n> " % buf)
        buf = ""
    elif "\r" in data:
        buf += data.replace("\r", "\n")
        out(data.replace("\r", " "))
    else:
        buf += data
        out(data)
`

func TestSendEnterSubmitsToAPasteDetectingComposer(t *testing.T) {
	needProgram(t, "python3")
	script := filepath.Join(t.TempDir(), "composer.py")
	require.NoError(t, os.WriteFile(script, []byte(pasteComposer), 0o644))
	te := startEngine(t, fmt.Sprintf(`
procs:
  agent:
    command: [python3, %q]
    interactive: true
    readyPatterns: ['^> ?$']
    busyPatterns: ['working\.\.\.$']
`, script), Options{NoWatchdog: true})
	te.expectStates("agent", rules.StateStarting, ready)
	te.sendOK("agent", "hello\r") // procs send agent hello --enter
	te.expectStates("agent", busy, ready)
	logs, err := te.Logs("agent", 0)
	require.NoError(t, err)
	assert.True(t, containsLine(logs, "got: hello"), "the Enter submitted, not pasted: %v", logs)
}

// TestLastScreenOfAnEndedProcess: once a PTY process has ended, its last
// screen, which holds why, is still there.
func TestLastScreenOfAnEndedProcess(t *testing.T) {
	needProgram(t, "python3")
	te := startEngine(t, `
procs:
  py: {command: python3 -i -q, env: {PYTHONSTARTUP: ""}}
  other: {command: sleep 60}
`, Options{NoWatchdog: true})
	te.expectStates("py", rules.StateStarting, ready)
	te.sendOK("py", "raise SystemExit('bye: the reason')\r")
	te.expectStates("py", busy, rules.StateFailed)
	scr, err := te.Screen(context.Background(), "py")
	require.NoError(t, err)
	assert.True(t, scr.Ended)
	assert.Contains(t, scr.Text, "bye: the reason")
}
