package control

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/composetest"
)

// testDeadline is the generous bound of every wait in these tests.
const testDeadline = 20 * time.Second

// harness is a real engine served on a real socket in a temp project.
type harness struct {
	dir    string
	engine *compose.Engine
	server *Server
	client *Client
	run    *composetest.Run
}

// startHarness runs the config text in a new project folder.
func startHarness(t testing.TB, yamlText string) *harness {
	t.Helper()
	return startHarnessIn(t, t.TempDir(), yamlText)
}

func startHarnessIn(t testing.TB, dir, yamlText string) *harness {
	t.Helper()
	run := composetest.Start(t, dir, yamlText)
	h := &harness{dir: dir, engine: run.Engine, run: run}
	ctx, cancel := context.WithCancel(context.Background())
	var err error
	h.server, err = Serve(ctx, run.Engine, dir)
	require.NoError(t, err)
	h.client, err = Dial(dir)
	require.NoError(t, err)
	t.Cleanup(func() {
		h.client.Close()
		run.Stop(t)
		cancel()
		_ = h.server.Close()
	})
	return h
}

// ctx returns a context bounded by the test deadline.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	t.Cleanup(cancel)
	return ctx
}

// waitReady waits for every named process to be ready.
func (h *harness) waitReady(t testing.TB, names ...string) {
	t.Helper()
	for _, name := range names {
		res, err := h.client.Wait(testCtx(t), name, WaitOptions{Timeout: testDeadline})
		require.NoError(t, err)
		require.True(t, res.Success, "%s: %s %v", name, res.Message, res.Logs)
	}
}

// raw sends a request as is and returns the status and body.
func (h *harness) raw(t *testing.T, method, path, contentType string, body io.Reader) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), method, "http://procs"+path, body)
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := h.client.http.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, strings.TrimSpace(string(data))
}
