package mcp

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// demo has a server that echoes its input, a dependent, a process whose
// second run fails, and one that never becomes ready.
const demo = `
procs:
  web:
    command: echo starting; echo ready; while read line; do echo "got $line"; done; sleep 300
    readyPatterns: [ready]
  api:
    command: echo api ready; sleep 300
    readyPatterns: [ready]
    dependsOn: [web]
  flaky:
    command: if [ -e marker ]; then echo starting again; echo boom; exit 1; fi; touch marker; echo ready; sleep 300
    readyPatterns: [ready]
    errorPatterns: [boom]
  slow:
    command: echo warming up; sleep 300
    readyPatterns: [never printed]
    readyTimeout: 10m
`

// waitReady waits for each process with the wait_for_ready tool.
func (c *client) waitReady(t testing.TB, names ...string) {
	t.Helper()
	for _, name := range names {
		res := succeed[Result](t, c, "wait_for_ready", map[string]any{"name": name, "timeout": testDeadline.String()})
		require.True(t, res.Success, "%s: %s", name, res.Message)
	}
}

func TestToolsHaveDescriptionsAndSchemas(t *testing.T) {
	c := connect(t, Options{Dir: t.TempDir()})
	res, err := c.session.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	byName := map[string]*sdk.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	want := []string{"list_processes", "get_process", "restart_process", "start_process", "stop_process",
		"wait_for_ready", "get_logs", "send_input", "get_screen", "up", "down"}
	assert.ElementsMatch(t, want, keys(byName))
	for _, name := range want {
		tool := byName[name]
		require.NotNil(t, tool, name)
		assert.Greater(t, len(tool.Description), 60, "%s needs a description a model can act on", name)
		assert.NotNil(t, tool.InputSchema, name)
		assert.NotNil(t, tool.OutputSchema, name)
	}

	var schema struct {
		Properties map[string]struct {
			Type        any             `json:"type"`
			Default     json.RawMessage `json:"default"`
			Description string          `json:"description"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	data, err := json.Marshal(byName["restart_process"].InputSchema)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &schema))
	assert.Equal(t, []string{"name"}, schema.Required)
	assert.JSONEq(t, "true", string(schema.Properties["wait_for_ready"].Default))
	assert.JSONEq(t, `"1m0s"`, string(schema.Properties["ready_timeout"].Default))
	assert.NotEmpty(t, schema.Properties["ready_timeout"].Description)

	data, err = json.Marshal(byName["restart_process"].OutputSchema)
	require.NoError(t, err)
	for _, field := range []string{"success", "state", "message", "durationMs", "logs", "ports", "run"} {
		assert.Contains(t, string(data), `"`+field+`"`)
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestListAndGetProcess(t *testing.T) {
	c := project(t, demo)
	c.waitReady(t, "web", "api")
	list := succeed[ProcessList](t, c, "list_processes", nil)
	require.Len(t, list.Processes, 4)
	byName := map[string]Process{}
	for _, p := range list.Processes {
		byName[p.Name] = p
	}
	assert.Equal(t, rules.StateReady, byName["web"].State)
	assert.Equal(t, 1, byName["web"].Run)
	assert.NotZero(t, byName["web"].PID)
	assert.Equal(t, []string{"web"}, byName["api"].DependsOn)
	require.NotNil(t, byName["web"].CPUPercent, "what a running process uses")
	assert.Positive(t, byName["web"].MemoryBytes)
	assert.GreaterOrEqual(t, byName["web"].MemoryPeakBytes, byName["web"].MemoryBytes)

	detail := succeed[ProcessDetail](t, c, "get_process", map[string]any{"name": "web"})
	assert.Equal(t, "web", detail.Process.Name)
	assert.NotNil(t, detail.Process.CPUPercent)
	assert.Positive(t, detail.Process.MemoryBytes)
	assert.Equal(t, []string{"starting", "ready"}, detail.Logs)
	detail = succeed[ProcessDetail](t, c, "get_process", map[string]any{"name": "web", "lines": 1})
	assert.Equal(t, []string{"ready"}, detail.Logs)
}

func TestRestartProcessWaitsForTheNewRun(t *testing.T) {
	c := project(t, demo)
	c.waitReady(t, "web")
	res := succeed[Result](t, c, "restart_process", map[string]any{"name": "web"})
	assert.True(t, res.Success, res.Message)
	assert.Equal(t, rules.StateReady, res.State)
	assert.Equal(t, 2, res.Run)
	assert.Contains(t, res.Message, "ready")
	require.GreaterOrEqual(t, len(res.Logs), 2)
	assert.Equal(t, []string{"starting", "ready"}, res.Logs[len(res.Logs)-2:])
	assert.NotNil(t, res.Ports)

	// Without waiting, the answer comes at once and wait_for_ready follows.
	res = succeed[Result](t, c, "restart_process", map[string]any{"name": "web", "wait_for_ready": false})
	assert.Equal(t, 3, res.Run)
	assert.Contains(t, res.Message, "requested")
	c.waitReady(t, "web")
}

func TestRestartProcessThatFailsSaysWhyAndWhatNext(t *testing.T) {
	c := project(t, demo)
	c.waitReady(t, "flaky")
	res, msg := fail(t, c, "restart_process", map[string]any{"name": "flaky"})
	out := structured[Result](t, res)
	assert.False(t, out.Success)
	assert.Equal(t, rules.StateFailed, out.State)
	assert.Equal(t, 2, out.Run, "the first run's readiness must not count")
	assert.Contains(t, out.Message, "boom")
	require.GreaterOrEqual(t, len(out.Logs), 2)
	assert.Equal(t, []string{"starting again", "boom"}, out.Logs[len(out.Logs)-2:])
	assert.Contains(t, msg, "flaky is failed (run 2)")
	assert.Contains(t, msg, "  | boom")
	assert.Contains(t, msg, "Next: read the lines above, fix the cause")
}

func TestUnknownProcessListsTheKnownNames(t *testing.T) {
	c := project(t, demo)
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"get_process", map[string]any{"name": "nope"}},
		{"restart_process", map[string]any{"name": "nope"}},
		{"start_process", map[string]any{"name": "nope"}},
		{"stop_process", map[string]any{"name": "nope"}},
		{"wait_for_ready", map[string]any{"name": "nope"}},
		{"get_logs", map[string]any{"name": "nope"}},
		{"send_input", map[string]any{"name": "nope", "text": "x"}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			_, msg := fail(t, c, tc.tool, tc.args)
			assert.Contains(t, msg, `There is no process named "nope"`)
			assert.Contains(t, msg, "the processes are: ")
			for _, name := range []string{"web", "api", "flaky", "slow"} {
				assert.Contains(t, msg, name)
			}
			assert.Contains(t, msg, "Next: call again with one of those names")
		})
	}
}

func TestWaitThatTimesOutSaysItIsStillStarting(t *testing.T) {
	c := project(t, demo)
	res, msg := fail(t, c, "wait_for_ready", map[string]any{"name": "slow", "timeout": "1s"})
	out := structured[Result](t, res)
	assert.Equal(t, rules.StateStarting, out.State)
	assert.Contains(t, out.Message, "timed out after")
	assert.Contains(t, out.Logs, "warming up")
	assert.Contains(t, msg, "Next: it is still starting: call wait_for_ready")

	res, msg = fail(t, c, "restart_process", map[string]any{"name": "slow", "ready_timeout": "1s"})
	out = structured[Result](t, res)
	assert.Equal(t, 2, out.Run)
	assert.Contains(t, out.Message, "timed out after")
	assert.Contains(t, msg, "wait_for_ready")
}

func TestBadArgumentsAreToolErrors(t *testing.T) {
	c := project(t, demo)
	_, msg := fail(t, c, "restart_process", map[string]any{"name": "web", "ready_timeout": "soon"})
	assert.Contains(t, msg, `ready_timeout="soon" is not a positive duration`)
	_, msg = fail(t, c, "get_logs", map[string]any{"grep": "("})
	assert.Contains(t, msg, "not a valid regular expression")
	_, msg = fail(t, c, "restart_process", map[string]any{})
	assert.Contains(t, msg, "name")
	// A count of lines is never negative: -5 once passed for "the default".
	for _, tool := range []string{"get_logs", "get_process"} {
		_, msg = fail(t, c, tool, map[string]any{"name": "web", "lines": -5})
		assert.Contains(t, msg, "lines", tool)
		assert.Contains(t, msg, "minimum", tool)
	}
}

func TestStopAndStartProcess(t *testing.T) {
	c := project(t, demo)
	c.waitReady(t, "web", "api")
	res := succeed[Result](t, c, "stop_process", map[string]any{"name": "api"})
	assert.Equal(t, rules.StateStopped, res.State)
	_, msg := fail(t, c, "wait_for_ready", map[string]any{"name": "api", "timeout": "5s"})
	assert.Contains(t, msg, "Next: it is stopped: call start_process")
	res = succeed[Result](t, c, "start_process", map[string]any{"name": "api"})
	assert.Equal(t, rules.StateReady, res.State)
	assert.Equal(t, 2, res.Run)
}

func TestGetLogsFiltersByGrepAndCount(t *testing.T) {
	c := project(t, `
procs:
  counter:
    command: for i in 1 2 3 4 5; do echo "line $i"; echo "other $i"; done; echo ready; sleep 300
    readyPatterns: [ready]
  quiet:
    command: echo hush; sleep 300
    readyPatterns: [hush]
`)
	c.waitReady(t, "counter", "quiet")
	res := c.call(t, "get_logs", map[string]any{"name": "counter", "grep": "^line", "lines": 2})
	require.False(t, res.IsError, text(res))
	out := structured[LogLines](t, res)
	require.Len(t, out.Lines, 2)
	assert.Equal(t, "line 4", out.Lines[0].Text)
	assert.Equal(t, "line 5", out.Lines[1].Text)
	assert.Equal(t, "counter", out.Lines[1].Name)
	assert.Equal(t, "line 4\nline 5\n", text(res), "one process: plain lines for the model")

	res = c.call(t, "get_logs", map[string]any{"since": "1h", "grep": "hush|ready"})
	assert.Contains(t, text(res), "counter | ready\n")
	assert.Contains(t, text(res), "quiet | hush\n")

	res = c.call(t, "get_logs", map[string]any{"name": "counter", "grep": "nothing like this"})
	assert.Equal(t, "(no lines)", text(res))
	_, msg := fail(t, c, "get_logs", map[string]any{"since": "yesterday"})
	assert.Contains(t, msg, "since")
}

func TestSendInputReachesTheProcess(t *testing.T) {
	c := project(t, demo)
	c.waitReady(t, "web", "api")
	sent := succeed[InputSent](t, c, "send_input", map[string]any{"name": "web", "text": "hello", "enter": true})
	assert.True(t, sent.Sent)
	require.Eventually(t, func() bool {
		res := c.call(t, "get_logs", map[string]any{"name": "web", "grep": "got hello"})
		return len(structured[LogLines](t, res).Lines) == 1
	}, testDeadline, 100*time.Millisecond)

	succeed[Result](t, c, "stop_process", map[string]any{"name": "api"})
	_, msg := fail(t, c, "send_input", map[string]any{"name": "api", "text": "x"})
	assert.Contains(t, msg, "api did not take the input")
	assert.Contains(t, msg, "Next: call get_process")
}

func TestPortInUseNamesTheHolder(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	port := ln.Addr().(*net.TCPAddr).Port
	// keeper keeps procs running once web has failed.
	c := project(t, fmt.Sprintf(`
procs:
  web:
    command: echo ready; sleep 300
    readyPatterns: [ready]
    port: %d
  keeper:
    command: sleep 300
`, port))
	res, msg := fail(t, c, "wait_for_ready", map[string]any{"name": "web"})
	out := structured[Result](t, res)
	assert.Equal(t, rules.StateFailed, out.State)
	assert.Contains(t, out.Message, fmt.Sprintf("port %d is in use by pid %d", port, os.Getpid()))
	assert.Contains(t, msg, "Next: stop the program holding the port")
}

func TestFailureAdviceFollowsTheReason(t *testing.T) {
	// keeper keeps procs running once the others have failed.
	c := project(t, `
procs:
  sluggish:
    command: echo warming up; sleep 300
    readyPatterns: [never printed]
    readyTimeout: 1s
  missing:
    command: [./no-such-program]
  crashing:
    command: 'echo "panic: nil map"; exit 2'
    readyPatterns: [never printed]
  keeper:
    command: sleep 300
`)
	for _, tc := range []struct {
		name, message, next string
	}{
		{"sluggish", "after 1s", "Next: it was not ready within its readyTimeout"},
		{"missing", "no-such-program", "Next: its command could not be started: fix command or cwd in procs.yaml"},
		{"crashing", "exit", "Next: read the lines above, fix the cause"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, msg := fail(t, c, "wait_for_ready", map[string]any{"name": tc.name})
			out := structured[Result](t, res)
			assert.Equal(t, rules.StateFailed, out.State)
			assert.Contains(t, out.Message, tc.message)
			assert.Contains(t, msg, tc.next)
		})
	}
}

func TestSendInputToABusyInteractiveProcess(t *testing.T) {
	c := project(t, `
procs:
  shell:
    command: [sh, -i]
    env: {PS1: "$ ", ENV: ""}
    shutdown: {signal: SIGHUP}   # an interactive shell ignores SIGTERM
`)
	c.waitReady(t, "shell")
	list := succeed[ProcessList](t, c, "list_processes", nil)
	require.Len(t, list.Processes, 1)
	assert.True(t, list.Processes[0].Interactive)

	// Enter makes it busy until the command has run.
	succeed[InputSent](t, c, "send_input", map[string]any{"name": "shell", "text": "sleep 3; echo slept", "enter": true})
	_, msg := fail(t, c, "send_input", map[string]any{"name": "shell", "text": "echo hi", "enter": true})
	assert.Contains(t, msg, "shell did not take the input: shell is busy, not ready for input")
	assert.Contains(t, msg, `Next: call wait_for_ready {"name": "shell"}`)
	assert.Contains(t, msg, "force=true")
	assert.NotContains(t, msg, "--force", "an MCP client has arguments, not CLI flags")
	assert.NotContains(t, msg, "procs wait")

	sent := succeed[InputSent](t, c, "send_input", map[string]any{"name": "shell", "text": "echo forced", "enter": true, "force": true})
	assert.True(t, sent.Sent)
	c.waitReady(t, "shell")
}

func TestListProcessesNamesEachReplicaAndItsProcess(t *testing.T) {
	c := project(t, `
procs:
  worker:
    command: echo ready; sleep 300
    readyPatterns: [ready]
    replicas: 2
`)
	c.waitReady(t, "worker-1", "worker-2")
	list := succeed[ProcessList](t, c, "list_processes", nil)
	require.Len(t, list.Processes, 2)
	for i, p := range list.Processes {
		assert.Equal(t, fmt.Sprintf("worker-%d", i+1), p.Name)
		assert.Equal(t, "worker", p.ReplicaOf)
		assert.Equal(t, i+1, p.Replica)
	}
}
