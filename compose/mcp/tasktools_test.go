package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// taskProject has tasks with args, one without, and a service that keeps
// procs running.
const taskProject = `
procs:
  web:
    command: echo ready; exec sleep 300
    readyPatterns: [ready]
  test:
    kind: task
    disabled: true
    description: Run the tests matching a pattern
    command: |
      echo "filter=$FILTER count=$COUNT race=$RACE"
      printf 'pattern=%s\n' {{args.filter}}
      if [ "$FILTER" = fail ]; then echo "FAIL TestX"; exit 3; fi
    args:
      - {name: filter, description: the test name pattern, required: true}
      - {name: count, type: integer, description: how many times, default: 1}
      - {name: race, type: boolean, default: false}
  build:
    kind: task
    disabled: true
    command: echo built
  slow:
    kind: task
    disabled: true
    command: echo "label=$LABEL"; exec sleep 300
    args: [{name: label, default: a}]
`

// taskClient runs taskProject in a new folder and connects an MCP client
// whose server offers its tasks, as procs mcp does.
func taskClient(t *testing.T) (*client, string) {
	t.Helper()
	dir := t.TempDir()
	p := mustStartProcs(t, dir, taskProject)
	var tasks []*config.Proc
	for _, name := range p.engine.Config().Names() {
		tasks = append(tasks, p.engine.Config().Procs[name])
	}
	return connect(t, Options{Dir: dir, Version: "test", Tasks: tasks}), dir
}

// TestTaskToolsListed: each task is a tool run_NAME whose input schema is
// built from its args, beside the static tools.
func TestTaskToolsListed(t *testing.T) {
	c, _ := taskClient(t)
	res, err := c.session.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	byName := map[string]*sdk.Tool{}
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
	}
	for _, name := range []string{"run_test", "run_build", "run_slow", "restart_process", "list_processes", "up", "down"} {
		assert.Contains(t, byName, name)
	}
	assert.NotContains(t, byName, "run_web", "a service is not a task")

	test := byName["run_test"]
	assert.Contains(t, test.Description, "Run the tests matching a pattern. Runs the task test of procs.yaml")
	assert.Contains(t, test.Description, "never run as shell code")
	assert.NotNil(t, test.OutputSchema)
	data, err := json.Marshal(test.InputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"type": "object",
		"properties": {
			"filter": {"type": "string", "description": "the test name pattern"},
			"count": {"type": "integer", "description": "how many times", "default": 1},
			"race": {"type": "boolean", "default": false}
		},
		"required": ["filter"],
		"additionalProperties": false
	}`, string(data))
	data, err = json.Marshal(byName["run_build"].InputSchema)
	require.NoError(t, err)
	assert.JSONEq(t, `{"type": "object", "properties": {}, "additionalProperties": false}`, string(data))
}

// TestTaskToolRuns: calling a task's tool runs it with the arguments,
// defaults filled, and returns its exit code and last lines; hostile
// values arrive as plain text.
func TestTaskToolRuns(t *testing.T) {
	c, dir := taskClient(t)
	res := c.call(t, "run_test", map[string]any{"filter": "TestLogin", "count": 3})
	require.False(t, res.IsError, text(res))
	out := structured[TaskResult](t, res)
	assert.True(t, out.Success)
	assert.Equal(t, rules.StateCompleted, out.State)
	require.NotNil(t, out.ExitCode)
	assert.Equal(t, 0, *out.ExitCode)
	assert.Equal(t, []string{"filter=TestLogin count=3 race=false", "pattern=TestLogin"}, out.Logs)
	assert.Contains(t, text(res), "test completed (run 1, exit code 0, ")
	assert.NotContains(t, text(res), "): exit code 0", "the exit code is said once")

	require.NoError(t, os.Mkdir(filepath.Join(dir, "x"), 0o755))
	for _, hostile := range []string{`'; rm -rf x'`, `$(touch pwned)`, "`touch pwned`", `"; touch pwned; echo "`} {
		out := succeed[TaskResult](t, c, "run_test", map[string]any{"filter": hostile})
		assert.Equal(t, []string{"filter=" + hostile + " count=1 race=false", "pattern=" + hostile}, out.Logs)
		assert.NoFileExists(t, filepath.Join(dir, "pwned"), hostile)
		assert.DirExists(t, filepath.Join(dir, "x"), hostile)
	}

	res, msg := fail(t, c, "run_test", map[string]any{"filter": "fail"})
	out = structured[TaskResult](t, res)
	assert.Equal(t, rules.StateFailed, out.State)
	require.NotNil(t, out.ExitCode)
	assert.Equal(t, 3, *out.ExitCode)
	assert.Contains(t, msg, "exit code 3")
	assert.Contains(t, msg, "  | FAIL TestX")
	assert.Contains(t, msg, "Next: read the lines above (get_logs for more), fix the cause, then call run_test again.")

	built := succeed[TaskResult](t, c, "run_build", nil)
	assert.Equal(t, []string{"built"}, built.Logs)
}

// TestTaskToolRefuses: arguments the schema refuses never reach procs; a
// call while the task runs is refused, not joined.
func TestTaskToolRefuses(t *testing.T) {
	c, _ := taskClient(t)
	for _, args := range []map[string]any{
		{"filter": "x", "count": "abc"},
		{"filter": "x", "fliter": "y"},
		{"count": 2},
	} {
		_, msg := fail(t, c, "run_test", args)
		assert.Contains(t, msg, "validating", "%v", args)
	}
	res := c.call(t, "start_process", map[string]any{"name": "slow", "wait_for_ready": false})
	require.False(t, res.IsError, text(res))
	_, msg := fail(t, c, "run_slow", map[string]any{"label": "b"})
	assert.Contains(t, msg, "slow is busy: run 1 is")
	assert.Contains(t, msg, "Next: wait for that run to end")
}
