package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// e2eProject is the project the TypeScript client drives: a real dev
// server (python's http.server) and a process whose second run fails the
// way a broken edit does.
const e2eProject = `
procs:
  web:
    command: python3 -u -m http.server --bind 127.0.0.1 0
    readyPatterns: ['Serving HTTP on']
  flaky:
    command: 'if [ -e marker ]; then echo "Error: Cannot find module server.js"; exit 1; fi; touch marker; echo ready; sleep 300'
    readyPatterns: [ready]
    errorPatterns: ['Error:']
`

// tsToolResult is a tool call as client.mjs reports it.
type tsToolResult struct {
	IsError    bool            `json:"isError"`
	Structured json.RawMessage `json:"structured"`
	Text       string          `json:"text"`
	Ms         int64           `json:"ms"`
}

// tsReport is what client.mjs prints.
type tsReport struct {
	Server struct {
		Name string `json:"name"`
	} `json:"server"`
	Tools []struct {
		Name            string `json:"name"`
		Description     string `json:"description"`
		HasInputSchema  bool   `json:"hasInputSchema"`
		HasOutputSchema bool   `json:"hasOutputSchema"`
	} `json:"tools"`
	Templates    []string     `json:"templates"`
	WaitWeb      tsToolResult `json:"waitWeb"`
	RestartWeb   tsToolResult `json:"restartWeb"`
	RestartFlaky tsToolResult `json:"restartFlaky"`
	Unknown      tsToolResult `json:"unknown"`
	WebLog       string       `json:"webLog"`
	Down         tsToolResult `json:"down"`
	AfterDown    tsToolResult `json:"afterDown"`
}

// TestTypeScriptClientOverStdio has the official TypeScript SDK, an
// independent MCP client, spawn the built procs binary as `procs mcp
// --start` over stdio, and restart a process that comes back ready and one
// that fails.
func TestTypeScriptClientOverStdio(t *testing.T) {
	node := testenv.LookPath(t, "node")
	testenv.LookPath(t, "python3")
	clientDir, err := filepath.Abs(filepath.Join("testdata", "tsclient"))
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(clientDir, "node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		testenv.Missing(t, "the TypeScript MCP SDK is not installed (npm ci in compose/mcp/testdata/tsclient; .ci/run does it)")
	}
	procs := buildProcs(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte(e2eProject), 0o644))
	t.Cleanup(func() { stopLeftover(dir) })

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", procs, dir)
	cmd.Dir = clientDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, "client.mjs: %s", stderr.String())
	var report tsReport
	require.NoError(t, json.Unmarshal(stdout, &report), "%s", stdout)

	assert.Equal(t, "procs", report.Server.Name)
	var names []string
	for _, tool := range report.Tools {
		names = append(names, tool.Name)
		assert.True(t, tool.HasInputSchema && tool.HasOutputSchema, tool.Name)
		assert.NotEmpty(t, tool.Description, tool.Name)
	}
	assert.ElementsMatch(t, []string{"list_processes", "get_process", "restart_process", "start_process", "stop_process",
		"wait_for_ready", "get_logs", "send_input", "get_screen", "up", "down"}, names)
	assert.Equal(t, []string{"procs://logs/{name}"}, report.Templates)

	require.False(t, report.WaitWeb.IsError, report.WaitWeb.Text)
	require.False(t, report.RestartWeb.IsError, report.RestartWeb.Text)
	web := decodeResult(t, report.RestartWeb)
	assert.True(t, web.Success)
	assert.Equal(t, rules.StateReady, web.State)
	assert.Equal(t, 2, web.Run)
	assert.Contains(t, web.Message, "Serving HTTP on")
	t.Logf("restart_process web: %d ms round trip as the TypeScript client measured it (procs: %d ms)", report.RestartWeb.Ms, web.DurationMs)

	require.True(t, report.RestartFlaky.IsError, report.RestartFlaky.Text)
	flaky := decodeResult(t, report.RestartFlaky)
	assert.False(t, flaky.Success)
	assert.Equal(t, rules.StateFailed, flaky.State)
	assert.Contains(t, flaky.Logs, "Error: Cannot find module server.js")
	assert.Contains(t, report.RestartFlaky.Text, "Next: read the lines above")

	require.True(t, report.Unknown.IsError)
	assert.Contains(t, report.Unknown.Text, `There is no process named "nope"`)
	assert.Contains(t, report.WebLog, "Serving HTTP on")

	require.False(t, report.Down.IsError, report.Down.Text)
	require.True(t, report.AfterDown.IsError)
	assert.Contains(t, report.AfterDown.Text, "No procs is running")
}

func decodeResult(t *testing.T, res tsToolResult) Result {
	t.Helper()
	var out Result
	require.NoError(t, json.Unmarshal(res.Structured, &out), "%s", res.Structured)
	return out
}

// buildProcs builds the procs binary for a test.
func buildProcs(t *testing.T) string {
	t.Helper()
	goTool := testenv.LookPath(t, "go")
	bin := filepath.Join(t.TempDir(), "procs")
	out, err := exec.Command(goTool, "build", "-o", bin, "github.com/procsdev/procs/cmd/procs").CombinedOutput()
	require.NoError(t, err, "build procs: %s", out)
	return bin
}

// stopLeftover terminates a procs that a failed test left running in dir.
func stopLeftover(dir string) {
	data, err := os.ReadFile(filepath.Join(dir, ".procs", "procs.pid"))
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
		_ = osproc.Signal(pid, syscall.SIGTERM)
	}
}
