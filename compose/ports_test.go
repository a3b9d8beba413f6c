package compose

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// TestReadyReportsThePortActuallyUsed: a server that binds a port of its
// choosing and says "ready" at once (before the port watcher's next look)
// is reported with that port, in its status and in the wait result.
func TestReadyReportsThePortActuallyUsed(t *testing.T) {
	te := startEngine(t, `
procs:
  web:
    command: [python3, -u, -c, "import socket,time; s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen(); print('ready on', s.getsockname()[1]); time.sleep(300)"]
    readyPatterns: [ready]
`, Options{NoWatchdog: true})
	ready := te.waitState("web", rules.StateReady)
	lines, err := te.Logs("web", 1)
	require.NoError(t, err)
	require.Len(t, lines, 1)
	port, err := strconv.Atoi(strings.TrimPrefix(lines[0].Text, "ready on "))
	require.NoError(t, err, "line %q", lines[0].Text)

	res, err := te.Wait(t.Context(), "web", []rules.State{rules.StateReady}, ready.Run)
	require.NoError(t, err)
	assert.Equal(t, []int{port}, res.Ports)
	st, err := te.StatusOf("web")
	require.NoError(t, err)
	assert.Equal(t, []int{port}, st.Ports)
}

// TestRestartWaitsForTheOldListenerToGo: when the old run's listener
// outlives it for a moment (here a detached child it left holding the
// socket for a second), the restart waits for the port instead of failing
// with "port in use".
func TestRestartWaitsForTheOldListenerToGo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	server := fmt.Sprintf(`
import os, signal, socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", %d))
s.listen()
def term(*_):
    s.set_inheritable(True)
    if os.fork() == 0:
        os.setsid()
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)  # let go of the run's output, keep the socket
        os.execve("/bin/sleep", ["sleep", "1"], {})  # unmarked: procs cannot find it
    sys.exit(0)
signal.signal(signal.SIGTERM, term)
print("serving", flush=True)
while True:
    time.sleep(1)
`, port)
	te := startEngine(t, fmt.Sprintf("procs:\n  web:\n    command: [python3, -c, %q]\n    port: %d\n    readyPatterns: [serving]\n", server, port), Options{NoWatchdog: true})
	te.waitState("web", rules.StateReady)
	run, err := te.Restart("web")
	require.NoError(t, err)
	res, err := te.Wait(t.Context(), "web", []rules.State{rules.StateReady}, run)
	require.NoError(t, err)
	assert.True(t, res.Success, "restart: %s", res.Message)
}
