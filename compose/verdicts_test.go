package compose

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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

// A process with nothing to wait for that dies at once is
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

// A server that prints a traceback and stays alive
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
	pid := readPID(t, te.dir+"/pid")
	_, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/cmdline")
	assert.True(t, os.IsNotExist(err), "the failed run's process is gone")
}

// listenLater writes a python script that prints line, then after a pause
// listens on port, and returns its path.
func listenLater(t *testing.T, line string, port int) string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "server.py")
	text := fmt.Sprintf(`import socket, time
print(%q, flush=True)
time.sleep(0.3)
s = socket.socket()
s.bind(("127.0.0.1", %d))
s.listen()
time.sleep(60)
`, line, port)
	require.NoError(t, os.WriteFile(script, []byte(text), 0o644))
	return script
}

// A ready line that comes before the port (uvicorn
// --reload) is not ready until the process tree listens on the configured
// port; and status shows the ports of a run a line made ready.
func TestReadyLineWaitsForConfiguredPort(t *testing.T) {
	needProgram(t, "python3")
	port, other := freePort(t), freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  api:
    command: [python3, %s]
    port: %d
    readyPatterns: ['Uvicorn running on']
  cache:
    command: [python3, %s]
    readyPatterns: ['Ready to accept']
`, listenLater(t, fmt.Sprintf("INFO: Uvicorn running on http://127.0.0.1:%d", port), port), port,
		listenLater(t, "* Ready to accept connections tcp", other)), Options{NoWatchdog: true})
	require.True(t, te.waitResult("api").Success)
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	require.NoError(t, err, "ready means the port accepts")
	conn.Close()

	require.True(t, te.waitResult("cache").Success)
	require.Eventually(t, func() bool {
		st, err := te.StatusOf("cache")
		return err == nil && slices.Equal(st.Ports, []int{other})
	}, waitLimit, 20*time.Millisecond, "status shows the port of a run a line made ready")
}

// A worker started through a slow version-manager shim (pyenv on a busy
// machine takes seconds to exec python) that then dies at once is never
// ready: the settle window starts when the real program runs.
func TestSlowShimThenCrashIsNeverReady(t *testing.T) {
	shims := filepath.Join(t.TempDir(), "shims")
	require.NoError(t, os.MkdirAll(shims, 0o755))
	shim := filepath.Join(shims, "worker")
	require.NoError(t, os.WriteFile(shim, []byte("#!/bin/sh\nsleep 1.5\nexec sh -c 'echo boom >&2; exit 3'\n"), 0o755))
	te := startEngine(t, "procs:\n  worker: {command: "+shim+"}\n", Options{NoWatchdog: true})
	res := te.waitResult("worker")
	assert.False(t, res.Success, "%+v", res)
	assert.Contains(t, res.Message, `exit code 3; last error line "boom"`)
}

// A crash inside the stability delay is never ready, even when the delay
// runs out while the output is still drained after the exit: a wrapper
// whose child keeps the output open says it listens and exits 3 before
// the delay is up.
func TestExitInsideTheStabilityDelayIsNotReady(t *testing.T) {
	te := startEngine(t, `
procs:
  srv:
    command: "(sleep 5) & echo listening; sleep 0.05; exit 3"
    readyPatterns: [listening]
    stabilityDelay: 200ms
`, Options{NoWatchdog: true})
	last := te.expectStates("srv", rules.StateStarting, rules.StateFailed)
	assert.Contains(t, last.Message, "code 3")
}
