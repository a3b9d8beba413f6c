//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taskArgsProject has a task with args beside a service.
const taskArgsProject = `
procs:
  web:
    command: echo ready; exec sleep 300
    readyPatterns: [ready]
  test:
    kind: task
    disabled: true
    description: Run the tests matching a pattern
    command: echo "filter=$FILTER count=$COUNT"; printf 'pattern=%s\n' {{args.filter}}; exit $COUNT
    args:
      - {name: filter, description: the test name pattern, required: true}
      - {name: count, type: integer, default: 0}
`

// TestMCPTaskTools drives the real procs mcp over stdio with the go-sdk
// client, as an agent does: the task is a tool whose input schema comes
// from its args, and calling it runs the task on the running procs, an
// injection attempt arriving as plain text.
func TestMCPTaskTools(t *testing.T) {
	dir := startProject(t, taskArgsProject)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "x"), 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "procs-test", Version: "0"}, nil)
	session, err := client.Connect(ctx, &sdk.CommandTransport{Command: procsCommand(dir, "mcp")}, nil)
	require.NoError(t, err)
	defer session.Close()

	tools, err := session.ListTools(ctx, nil)
	require.NoError(t, err)
	var schema json.RawMessage
	for _, tool := range tools.Tools {
		if tool.Name == "run_test" {
			schema, err = json.Marshal(tool.InputSchema)
			require.NoError(t, err)
			assert.Contains(t, tool.Description, "Run the tests matching a pattern.")
		}
	}
	require.NotNil(t, schema, "procs mcp lists the task's tool run_test")
	assert.JSONEq(t, `{"type": "object", "additionalProperties": false, "required": ["filter"], "properties": {
		"filter": {"type": "string", "description": "the test name pattern"},
		"count": {"type": "integer", "default": 0}}}`, string(schema))

	call := func(args map[string]any) (*sdk.CallToolResult, map[string]any) {
		res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: "run_test", Arguments: args})
		require.NoError(t, err)
		var out map[string]any
		if res.StructuredContent != nil {
			data, err := json.Marshal(res.StructuredContent)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(data, &out))
		}
		return res, out
	}
	res, out := call(map[string]any{"filter": "'; rm -rf x; touch pwned'"})
	require.False(t, res.IsError, "%v", res.Content)
	assert.EqualValues(t, 0, out["exitCode"])
	assert.Equal(t, []any{"filter='; rm -rf x; touch pwned' count=0", "pattern='; rm -rf x; touch pwned'"}, out["logs"])
	assert.DirExists(t, filepath.Join(dir, "x"))
	assert.NoFileExists(t, filepath.Join(dir, "pwned"))

	res, out = call(map[string]any{"filter": "$(touch pwned)`touch pwned`", "count": 4})
	assert.True(t, res.IsError)
	assert.EqualValues(t, 4, out["exitCode"])
	assert.Equal(t, []any{"filter=$(touch pwned)`touch pwned` count=4", "pattern=$(touch pwned)`touch pwned`"}, out["logs"])
	assert.NoFileExists(t, filepath.Join(dir, "pwned"))

	res, _ = call(map[string]any{"filter": "x", "count": "abc"})
	assert.True(t, res.IsError, "a value of the wrong type is refused")
}
