package compose

import (
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
