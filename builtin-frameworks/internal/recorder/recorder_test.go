//go:build unix

package recorder

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunPipe(t *testing.T) {
	opts := Options{Command: `sh -c 'echo out; echo ready now; echo err >&2; exit 3'`, Dir: t.TempDir(),
		ReadyLine: regexp.MustCompile(`ready`), Timeout: 10 * time.Second}
	res, err := Run(context.Background(), opts)
	require.NoError(t, err)
	require.NotNil(t, res.ExitCode)
	assert.Equal(t, 3, *res.ExitCode)
	assert.Equal(t, "ready now", res.ReadyLine)
	var out, errs strings.Builder
	for _, c := range res.Chunks {
		map[string]*strings.Builder{"stdout": &out, "stderr": &errs}[c.Stream].Write(c.Data)
	}
	assert.Equal(t, "out\nready now\n", out.String())
	assert.Equal(t, "err\n", errs.String())

	dir := filepath.Join(t.TempDir(), "capture")
	require.NoError(t, Write(dir, opts, res, NewMeta("sh", "exit-3", opts, res), ""))
	data, err := os.ReadFile(filepath.Join(dir, "chunks.jsonl"))
	require.NoError(t, err)
	var first map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &first))
	assert.Contains(t, first, "data_b64")
	assert.Contains(t, first, "t")
	cmd, err := os.ReadFile(filepath.Join(dir, "cmd.txt"))
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(string(cmd), opts.Command+"\n"))
}

func TestRunPTYStopAfterReady(t *testing.T) {
	opts := Options{Command: `sh -c 'echo ready; sleep 30'`, Dir: t.TempDir(), PTY: true,
		ReadyLine: regexp.MustCompile(`^ready`), StopAfter: 50 * time.Millisecond, Timeout: 10 * time.Second}
	res, err := Run(context.Background(), opts)
	require.NoError(t, err)
	require.NotNil(t, res.SignalAt)
	assert.Equal(t, "SIGINT", res.ExitSignal)
	require.NotEmpty(t, res.Chunks)
	assert.Equal(t, "pty", res.Chunks[0].Stream)
	assert.Contains(t, string(res.Chunks[0].Data), "ready\r\n")
}

// A shell without job control starts a background job (`capture-all.sh &`,
// a CI runner) with SIGINT ignored. The program must still get the Ctrl-C
// the recorder sends, with its default action, as it would in a terminal;
// and the recorder's own process keeps the disposition it had.
func TestRunStopsAProgramThoughTheRecorderIgnoresSIGINT(t *testing.T) {
	signal.Ignore(syscall.SIGINT)
	t.Cleanup(func() { signal.Reset(syscall.SIGINT) })
	for _, onPTY := range []bool{true, false} {
		// exec sleep, not a shell waiting for it: dash -c catches SIGINT, and
		// one that lands in a child between fork and exec is lost, so dash
		// waits 30 s for a sleep that never saw it (69 of 400 times when
		// sent at once after the ready line).
		opts := Options{Command: `sh -c 'echo ready; exec sleep 30'`, Dir: t.TempDir(), PTY: onPTY,
			ReadyLine: regexp.MustCompile(`^ready`), StopAfter: 50 * time.Millisecond, Timeout: 10 * time.Second}
		res, err := Run(context.Background(), opts)
		require.NoError(t, err)
		assert.Equal(t, "SIGINT", res.ExitSignal, "on a pty: %v", onPTY)
		assert.True(t, signal.Ignored(syscall.SIGINT), "the recorder left SIGINT as it found it")
	}
}

// A dev server may listen long before its first build is done
// (react-scripts 5: the port at 2.5 s, "Compiled successfully!" at 10 s):
// with a ready line given, the stop comes after both, or the capture ends
// before the line it is for.
func TestRunStopsAfterTheReadyLineThoughThePortOpenedFirst(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	server := fmt.Sprintf(`import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", %d)); s.listen()
time.sleep(0.5); print("compiled", flush=True); time.sleep(30)`, port)
	opts := Options{Command: "python3 -c '" + server + "'", Dir: t.TempDir(), Port: port,
		ReadyLine: regexp.MustCompile(`^compiled`), StopAfter: 50 * time.Millisecond, Timeout: 20 * time.Second}
	res, err := Run(context.Background(), opts)
	require.NoError(t, err)
	require.NotNil(t, res.PortOpenT)
	require.NotNil(t, res.ReadyLineT, "stopped before the ready line")
	require.NotNil(t, res.SignalAt)
	assert.Less(t, *res.PortOpenT, *res.ReadyLineT)
	assert.GreaterOrEqual(t, *res.SignalAt, *res.ReadyLineT)
}
