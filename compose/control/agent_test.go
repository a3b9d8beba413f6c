package control

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/benchmetric"
	"github.com/procsdev/procs/internal/fakeagent"
	"github.com/procsdev/procs/rules"
)

// agentConfig runs the fake agent CLI with Claude Code's preset: it draws
// the same prompt box, spinner and dialogs.
func agentConfig(extra string) string {
	return fmt.Sprintf(`procs:
  agent:
    command: [python3, %q, --no-first-run, --work, "1"]
    framework: claude-code
    env: {FAKEAGENT_READY_LOG: ready.log}
%s`, fakeagent.Script(), extra)
}

func TestInputRefusedWhileBusy(t *testing.T) {
	h := startHarness(t, agentConfig(""))
	h.waitReady(t, "agent")
	require.NoError(t, h.client.Send(testCtx(t), "agent", InputRequest{Text: "work", Enter: true}))

	err := h.client.Send(testCtx(t), "agent", InputRequest{Text: "more", Enter: true})
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusConflict, apiErr.Status)
	assert.Equal(t, "busy", apiErr.State)
	assert.Contains(t, apiErr.Message, "agent is busy, not ready for input")

	status, body := h.raw(t, http.MethodPost, "/v1/procs/agent/input", "application/json", strings.NewReader(`{"text":"x"}`))
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, body, `"state":"busy"`)

	require.NoError(t, h.client.Send(testCtx(t), "agent", InputRequest{Text: "x", Force: true}), "force sends anyway")
	res, err := h.client.Wait(testCtx(t), "agent", WaitOptions{For: []rules.State{rules.StateReady}, Timeout: testDeadline})
	require.NoError(t, err)
	assert.True(t, res.Success, res.Message)
}

func TestPauseResumeAndScreenEndpoints(t *testing.T) {
	h := startHarness(t, agentConfig("    onIdle: {after: 1h, send: [continue]}\n"))
	h.waitReady(t, "agent")
	res, err := h.client.Pause(testCtx(t), "agent")
	require.NoError(t, err)
	assert.True(t, res.Idle.Paused)
	res, err = h.client.Resume(testCtx(t), "agent")
	require.NoError(t, err)
	assert.False(t, res.Idle.Paused)

	screen, err := h.client.Screen(testCtx(t), "agent")
	require.NoError(t, err)
	assert.Contains(t, screen.Text, "? for shortcuts")
	assert.Equal(t, rules.DefaultCols, screen.Cols)

	status, body := h.raw(t, http.MethodPost, "/v1/procs/nope/pause", "", nil)
	assert.Equal(t, http.StatusNotFound, status, body)
}

func TestPauseWithoutOnIdle(t *testing.T) {
	h := startHarness(t, agentConfig(""))
	_, err := h.client.Pause(testCtx(t), "agent")
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusConflict, apiErr.Status)
	assert.Contains(t, apiErr.Message, "no onIdle")
}

func TestAttachOverSocket(t *testing.T) {
	h := startHarness(t, agentConfig("")+"  plain: {command: sleep 300}\n")
	h.waitReady(t, "agent")
	conn, err := h.client.Attach(testCtx(t), "agent", 0, 0)
	require.NoError(t, err)
	defer conn.Close()
	screen := rules.NewScreen(rules.DefaultCols, rules.DefaultRows)
	read := func(want string) {
		t.Helper()
		buf := make([]byte, 4096)
		deadline := time.Now().Add(testDeadline)
		for !screen.Contains(want) {
			require.True(t, time.Now().Before(deadline), "no %q on the attached screen:\n%s", want, screen.Text())
			n, err := conn.Read(buf)
			_, _ = screen.Write(buf[:n])
			require.NoError(t, err)
		}
	}
	read("? for shortcuts")
	require.NoError(t, conn.Input([]byte("hi")))
	require.NoError(t, conn.Input([]byte("\r")))
	read("done: hi")
	require.NoError(t, conn.Resize(100, 30))
	require.Eventually(t, func() bool {
		st, err := h.client.Screen(testCtx(t), "agent")
		return err == nil && st.Cols == 100 && st.Rows == 30
	}, testDeadline, 10*time.Millisecond)
	require.NoError(t, conn.Close())
	st, err := h.client.Get(testCtx(t), "agent")
	require.NoError(t, err)
	assert.NotZero(t, st.PID, "detaching leaves the process running")

	_, err = h.client.Attach(testCtx(t), "plain", 0, 0)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusConflict, apiErr.Status)
	assert.Contains(t, apiErr.Message, "does not run in a terminal")
	_, err = h.client.Attach(testCtx(t), "nope", 0, 0)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusNotFound, apiErr.Status)
}

// BenchmarkWaitReadyAfterPrompt measures the latency from the fake agent
// drawing its prompt (the time it logs just before writing it) to `procs
// wait --for ready` (GET /v1/procs/agent/wait) returning, over the socket.
func BenchmarkWaitReadyAfterPrompt(b *testing.B) {
	dir := b.TempDir()
	h := startHarnessIn(b, dir, strings.Replace(agentConfig(""), `"1"`, `"0.01"`, 1))
	h.waitReady(b, "agent")
	log := filepath.Join(dir, "ready.log")
	var samples []time.Duration
	for b.Loop() {
		if err := h.client.Send(b.Context(), "agent", InputRequest{Text: "go", Enter: true}); err != nil {
			b.Fatalf("send: %v", err)
		}
		res, err := h.client.Wait(b.Context(), "agent", WaitOptions{For: []rules.State{rules.StateReady}, Timeout: testDeadline})
		returned := time.Now()
		if err != nil || !res.Success {
			b.Fatalf("wait: %v %s", err, res.Message)
		}
		samples = append(samples, returned.Sub(lastPromptTime(b, log)))
	}
	benchmetric.ReportPercentiles(b, "ms", samples)
}

// lastPromptTime reads the time the fake agent last drew its prompt.
func lastPromptTime(b *testing.B, path string) time.Time {
	data, err := os.ReadFile(path)
	require.NoError(b, err)
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	ns, err := strconv.ParseInt(string(lines[len(lines)-1]), 10, 64)
	require.NoError(b, err)
	return time.Unix(0, ns)
}
