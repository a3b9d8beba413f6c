package webui

import (
	"context"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/composetest"
	"github.com/procsdev/procs/compose/control"
)

// testDeadline is the generous bound of every wait in these tests.
const testDeadline = 30 * time.Second

// harness is a real engine, its API on a real socket, and the dashboard on
// a real loopback port, in a temp project.
type harness struct {
	dir    string
	client *control.Client
	ui     *Server
	base   string // http://127.0.0.1:port
	stop   func() // stops all three; idempotent
}

// startHarness runs yamlText under procs in a new folder and serves its
// dashboard.
func startHarness(t testing.TB, yamlText string) *harness {
	t.Helper()
	return startHarnessIn(t, t.TempDir(), yamlText)
}

// startHarnessIn runs yamlText under procs in dir (again, after a stop:
// the dashboard finds its port and token in dir/.procs).
func startHarnessIn(t testing.TB, dir, yamlText string) *harness {
	t.Helper()
	run := composetest.Start(t, dir, yamlText)
	ctx, cancel := context.WithCancel(context.Background())
	server, err := control.Serve(ctx, run.Engine, dir)
	require.NoError(t, err)
	client, err := control.Dial(dir)
	require.NoError(t, err)
	ui, err := Start(ctx, client, Options{StateDir: filepath.Join(dir, ".procs")})
	require.NoError(t, err)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = ui.Close()
			client.Close()
			run.Stop(t)
			cancel()
			_ = server.Close()
		})
	}
	t.Cleanup(stop)
	return &harness{dir: dir, client: client, ui: ui, base: "http://" + ui.Addr(), stop: stop}
}

// token is the token of the dashboard's link.
func (h *harness) token(t testing.TB) string {
	u, err := url.Parse(h.ui.URL())
	require.NoError(t, err)
	return u.Query().Get("token")
}

// signedIn returns an HTTP client that opened the link (and so holds the
// cookie) and does not follow redirects.
func (h *harness) signedIn(t testing.TB) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	c := &http.Client{Jar: jar, Timeout: testDeadline}
	resp, err := c.Get(h.ui.URL())
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "the link redirects to the page")
	return c
}

// waitReady waits until every process is ready.
func (h *harness) waitReady(t testing.TB, names ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	defer cancel()
	for _, name := range names {
		res, err := h.client.Wait(ctx, name, control.WaitOptions{})
		require.NoError(t, err)
		require.True(t, res.Success, "%s: %s", name, res.Message)
	}
}

func (h *harness) do(t testing.TB, c *http.Client, method, path string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, h.base+path, strings.NewReader(""))
	require.NoError(t, err)
	for k, v := range header {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	return resp
}

// cookie is the Cookie header of a signed-in page.
func (h *harness) cookie(t testing.TB) string {
	_, port, err := net.SplitHostPort(h.ui.Addr())
	require.NoError(t, err)
	return "procs_ui_" + port + "=" + h.token(t)
}
