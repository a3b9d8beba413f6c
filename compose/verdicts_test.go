package compose

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// waitResult waits for name to be ready (or to fail) and returns the result.
func (te *testEngine) waitResult(name string) rules.Result {
	te.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	res, err := te.Wait(ctx, name, []rules.State{rules.StateReady}, 1)
	require.NoError(te.t, err)
	return res
}

// Issue 13 item 1: a process with nothing to wait for that dies at once is
// failed with its exit and last lines, never ready, while the one beside it
// is ready once it has run for the settle window.
func TestInstantCrashIsNeverReady(t *testing.T) {
	te := startEngine(t, `
procs:
  a: {command: "sleep 60"}
  b: {command: "echo boom >&2; exit 2"}
`, Options{NoWatchdog: true})
	res := te.waitResult("b")
	assert.False(t, res.Success)
	assert.Equal(t, rules.StateFailed, res.State)
	assert.Contains(t, res.Message, `exit code 2; last error line "boom"`)
	assert.Equal(t, []string{"boom"}, res.Logs)
	res = te.waitResult("a")
	assert.True(t, res.Success, "%+v", res)
	assert.Contains(t, res.Message, "running for 1s without error")
	for _, ev := range te.events {
		assert.False(t, ev.Proc == "b" && ev.To == rules.StateReady, "b was never ready: %+v", ev)
	}
}

// Issue 13 items 2 and 8: a server that prints a traceback and stays alive
// (Django's autoreloader after an import error) is failed with the line
// that explains it, the result shows that line and where, and procs stops
// the run (its restart policy then applies).
func TestFailedWhileStartingQuotesCauseAndIsStopped(t *testing.T) {
	script := `printf '%s\n' 'Traceback (most recent call last):' '  File "/srv/app.py", line 6' '    def broken(:' '               ^' 'SyntaxError: invalid syntax'; echo $$$$ > pid; exec sleep 60`
	te := startEngine(t, `
procs:
  web:
    command: |
      `+script+`
    errorPatterns: ['^Traceback']
    readyPatterns: ['Running on']
    restart: {policy: on-failure, maxRestarts: 1, backoff: 10ms..10ms}
`, Options{NoWatchdog: true})
	res := te.waitResult("web")
	assert.False(t, res.Success)
	assert.Contains(t, res.Message, `error line "SyntaxError: invalid syntax" at /srv/app.py, line 6`)
	assert.Contains(t, res.Logs, "SyntaxError: invalid syntax")
	assert.Contains(t, res.Logs, `  File "/srv/app.py", line 6`)

	stopped := te.waitFor("web stopped by procs", func(ev Event) bool {
		return ev.Type == EventState && ev.Proc == "web" && strings.Contains(ev.Message, "procs stopped it")
	})
	assert.Equal(t, rules.StateFailed, stopped.To)
	te.waitState("web", rules.StateBackoff)
	ev := te.waitFor("web run 2 stopped", func(ev Event) bool {
		return ev.Type == EventState && ev.Proc == "web" && ev.Run == 2 && strings.Contains(ev.Message, "procs stopped it")
	})
	assert.Contains(t, ev.Message, "SyntaxError")
	data, err := os.ReadFile(te.dir + "/pid")
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	_, err = os.Stat("/proc/" + strconv.Itoa(pid) + "/cmdline")
	assert.True(t, os.IsNotExist(err), "the failed run's process is gone")
}
