package compose

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/internal/fakeagent"
	"github.com/procsdev/procs/rules"
)

// send writes input as procs send does, failing the test on error.
func (te *testEngine) send(name, text string) {
	te.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	require.NoError(te.t, te.Input(ctx, name, []byte(text), false))
}

// waitInfo waits for an info event of name whose message contains part.
func (te *testEngine) waitInfo(name, part string) Event {
	te.t.Helper()
	return te.waitFor(name+" info "+part, func(ev Event) bool {
		return ev.Type == EventInfo && ev.Proc == name && strings.Contains(ev.Message, part)
	})
}

func TestPythonREPLStates(t *testing.T) {
	te := startEngine(t, `
procs:
  py:
    command: [python3, -i, -q]
    env: {PYTHONSTARTUP: ""}
`, Options{NoWatchdog: true})
	te.waitState("py", rules.StateReady)
	st, err := te.StatusOf("py")
	require.NoError(t, err)
	assert.Equal(t, "python-repl", st.Preset)
	assert.True(t, st.PTY, "an interactive preset runs in a terminal without pty: true")
	assert.True(t, st.Interactive)

	te.send("py", "import time; time.sleep(0.5); print(6*7)\r")
	busy := te.waitState("py", rules.StateBusy)
	assert.Equal(t, rules.ReasonInput, busy.Reason)
	te.waitState("py", rules.StateReady)
	logs, err := te.Logs("py", 0)
	require.NoError(t, err)
	assert.True(t, containsLine(logs, "42"), "the answer is in the logs")

	// Typing without Enter while ready is accepted; the prompt stays ready.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	require.NoError(t, te.Input(ctx, "py", []byte("exit()"), false))
	te.send("py", "\r")
	ev := te.waitState("py", rules.StateStopped)
	assert.Equal(t, rules.ReasonUserExit, ev.Reason, "exit 0 from an interactive program is the user leaving")
}

func containsLine(lines []rules.Line, s string) bool {
	for _, l := range lines {
		if strings.Contains(l.Text, s) {
			return true
		}
	}
	return false
}

func TestShellInteractiveRefusesInputWhileBusy(t *testing.T) {
	te := startEngine(t, `
procs:
  shell:
    command: [sh, -i]
    env: {PS1: "$ ", ENV: ""}
`, Options{NoWatchdog: true})
	te.waitState("shell", rules.StateReady)
	te.send("shell", "sleep 2; echo slept\r")
	te.waitState("shell", rules.StateBusy)

	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	err := te.Input(ctx, "shell", []byte("echo hi\r"), false)
	var notReady *NotReadyForInputError
	require.ErrorAs(t, err, &notReady)
	assert.Equal(t, rules.StateBusy, notReady.State)
	assert.Contains(t, err.Error(), "shell is busy, not ready for input")
	assert.Contains(t, err.Error(), "--force")

	require.NoError(t, te.Input(ctx, "shell", []byte("echo forced\r"), true), "--force sends anyway")
	te.waitState("shell", rules.StateReady)
}

// fakeAgentConfig runs the fake agent with claude-like patterns of its own.
func fakeAgentConfig(extra string) string {
	return fmt.Sprintf(`
procs:
  agent:
    command: [python3, %q, --work, "0.5"]
    framework: none
    interactive: true
    pty: {cols: 100, rows: 30}
    readyPatterns: ['^❯ ']
    notReadyPatterns: ['Choose the text style']
    errorPatterns: ['API Error']
    busyPatterns: ['esc to interrupt']
    questionPatterns: ['Enter to select']
    permissionPatterns: ['Do you want to proceed\?']
    recoverablePatterns: ['Retrying in \d+s']
%s`, fakeagent.Script(), extra)
}

func TestFakeAgentThroughEveryState(t *testing.T) {
	te := startEngine(t, fakeAgentConfig(`    autoRespond:
      - match: 'Choose the text style'
        send: "\r"
        once: true
`), Options{NoWatchdog: true})

	// not ready → autoRespond → ready
	answered := te.waitInfo("agent", "autoRespond")
	assert.Equal(t, rules.ReasonAutoRespond, answered.Reason)
	assert.Contains(t, answered.Message, `"Choose the text style that looks best with your terminal"`)
	ready := te.waitState("agent", rules.StateReady)
	assert.Contains(t, ready.Message, "idle at prompt")

	te.send("agent", "write the tests\r")
	te.waitState("agent", rules.StateBusy)
	te.waitState("agent", rules.StateReady)

	te.send("agent", "ask\r")
	te.waitState("agent", rules.StateAwaitingInput)
	te.send("agent", "2")
	te.waitState("agent", rules.StateReady)

	te.send("agent", "perm\r")
	te.waitState("agent", rules.StateAwaitingPermission)
	te.send("agent", "1")
	te.waitState("agent", rules.StateReady)

	te.send("agent", "ratelimit\r")
	failed := te.waitState("agent", rules.StateFailed)
	assert.True(t, failed.Recoverable, "a rate limit with a retry is recoverable")
	st, err := te.StatusOf("agent")
	require.NoError(t, err)
	assert.True(t, st.Recoverable)
	assert.NotZero(t, st.PID, "a recoverable failure leaves the agent running")
	te.waitState("agent", rules.StateReady)

	te.send("agent", "crash\r")
	crashed := te.waitState("agent", rules.StateFailed)
	assert.Equal(t, rules.ReasonCrash, crashed.Reason)
}

func TestIdleActionsRunCycles(t *testing.T) {
	te := startEngine(t, strings.Replace(fakeAgentConfig(`    onIdle: {after: 200ms, send: [/clear, continue], maxCycles: 2}
`), `--work, "0.5"`, `--no-first-run, --work, "0.2"`, 1), Options{NoWatchdog: true})
	te.waitState("agent", rules.StateReady)
	for cycle := 1; cycle <= 2; cycle++ {
		te.waitInfo("agent", fmt.Sprintf("idle cycle %d step 1/2: sent \"/clear\"", cycle))
		te.waitInfo("agent", fmt.Sprintf("idle cycle %d step 2/2: sent \"continue\"", cycle))
		te.waitInfo("agent", fmt.Sprintf("idle cycle %d done", cycle))
	}
	st, err := te.StatusOf("agent")
	require.NoError(t, err)
	require.NotNil(t, st.Idle)
	assert.Equal(t, 2, st.Idle.Cycles)
	screen, err := te.Screen(context.Background(), "agent")
	require.NoError(t, err)
	assert.Contains(t, screen.Text, "done: continue", "the agent got the inputs")
	assert.Equal(t, 100, screen.Cols)

	_, err = te.Pause("nope")
	assert.ErrorIs(t, err, ErrUnknownProcess)
}

func TestIdleActionsPauseResume(t *testing.T) {
	te := startEngine(t, strings.Replace(fakeAgentConfig(`    onIdle: {after: 300ms, send: [continue]}
`), `--work, "0.5"`, `--no-first-run, --work, "0.1"`, 1), Options{NoWatchdog: true})
	te.waitState("agent", rules.StateReady)
	st, err := te.Pause("agent")
	require.NoError(t, err)
	assert.True(t, st.Paused)
	te.waitInfo("agent", "idle actions paused")
	// Paused: nothing is sent however long it idles; resume starts counting again.
	st, err = te.Resume("agent")
	require.NoError(t, err)
	assert.False(t, st.Paused)
	te.waitInfo("agent", "idle actions resumed")
	te.waitInfo("agent", "idle cycle 1 step 1/1")
	te.waitInfo("agent", "idle cycle 1 done")
}

func TestOnIdleNeedsInteractive(t *testing.T) {
	// config.Load refuses this, with its place (config's onIdleTargets);
	// the engine's own check is the backstop for a config made otherwise.
	cfg := parseConfig(t, `
procs:
  web: {command: "sleep 60", interactive: true, onIdle: {after: 1s, send: [x]}}
`)
	no := false
	cfg.Procs["web"].Interactive = &no
	_, err := New(cfg, Options{NoWatchdog: true})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "onIdle needs an interactive process")
}

func TestAttachGetsScreenAndOutput(t *testing.T) {
	te := startEngine(t, strings.Replace(fakeAgentConfig(""), `--work, "0.5"`, `--no-first-run, --work, "0.1"`, 1), Options{NoWatchdog: true})
	te.waitState("agent", rules.StateReady)
	a, err := te.Attach(context.Background(), "agent", 0, 0)
	require.NoError(t, err)
	defer a.Close()
	redraw := rules.NewScreen(100, 30)
	_, _ = redraw.Write(a.Screen)
	assert.Contains(t, redraw.Text(), "? for shortcuts", "the current screen comes first")

	require.NoError(t, a.Input(context.Background(), []byte("hello\r")))
	deadline := time.After(waitLimit)
	for !redraw.Contains("done: hello") {
		select {
		case data, ok := <-a.Output:
			require.True(t, ok, "output ended early")
			_, _ = redraw.Write(data)
		case <-deadline:
			t.Fatalf("no answer on the attached terminal; screen:\n%s", redraw.Text())
		}
	}
	require.NoError(t, a.Resize(90, 25))
	screen, err := te.Screen(context.Background(), "agent")
	require.NoError(t, err)
	assert.Equal(t, []int{90, 25}, []int{screen.Cols, screen.Rows}, "the window follows the attached terminal")
	a.Close()
	screen, err = te.Screen(context.Background(), "agent")
	require.NoError(t, err)
	assert.Equal(t, []int{100, 30}, []int{screen.Cols, screen.Rows}, "the last detach restores the configured window")

	_, err = te.Attach(context.Background(), "nope", 0, 0)
	assert.ErrorIs(t, err, ErrUnknownProcess)
}

func TestNodeREPLStates(t *testing.T) {
	te := startEngine(t, `
procs:
  node:
    command: node
    env: {NODE_NO_READLINE: "", NODE_REPL_HISTORY: ""}
`, Options{NoWatchdog: true})
	te.waitState("node", rules.StateReady)
	st, err := te.StatusOf("node")
	require.NoError(t, err)
	assert.Equal(t, "node-repl", st.Preset)

	te.send("node", "await new Promise(r => setTimeout(r, 500)); 6*7\r")
	te.waitState("node", rules.StateBusy)
	te.waitState("node", rules.StateReady)
	screen, err := te.Screen(context.Background(), "node")
	require.NoError(t, err)
	assert.Contains(t, screen.Text, "42")
}

func TestUsesPTY(t *testing.T) {
	assert.True(t, usesPTY(&config.Proc{PTY: config.PTY{Enabled: true, Set: true}}, ""))
	assert.False(t, usesPTY(&config.Proc{}, ""))
	cols, rows := windowSize(&config.Proc{PTY: config.PTY{Enabled: true, Cols: 80}})
	assert.Equal(t, []int{80, 40}, []int{cols, rows})
}
