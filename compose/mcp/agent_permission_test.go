package mcp

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// TestAgentPermissionAnsweredThroughMCP: an agent CLI in its JSON mode
// (the stand-in speaking Claude Code's stream-json, shapes from its
// documentation: cmd/procs/testdata/agentjson_standin.py) asks to use a
// tool; an agent driving it over MCP sees awaiting-permission and answers
// with send_input, and the tool is allowed (issue 31 item 1).
func TestAgentPermissionAnsweredThroughMCP(t *testing.T) {
	standin, err := filepath.Abs("../../cmd/procs/testdata/agentjson_standin.py")
	require.NoError(t, err)
	c := project(t, fmt.Sprintf(`
procs:
  agent:
    command: python3 %s claude
    agent: {protocol: claude-stream-json}
`, standin))
	c.waitReady(t, "agent")
	succeed[InputSent](t, c, "send_input", map[string]any{"name": "agent", "text": "perm: clean the build", "enter": true})
	asking := succeed[Result](t, c, "wait_for_ready", map[string]any{"name": "agent", "timeout": testDeadline.String()})
	assert.Equal(t, rules.StateAwaitingPermission, asking.State, asking.Message)
	assert.Contains(t, asking.Message, "Bash rm -rf build")

	succeed[InputSent](t, c, "send_input", map[string]any{"name": "agent", "text": "yes", "enter": true})
	c.waitReady(t, "agent")
	detail := succeed[ProcessDetail](t, c, "get_process", map[string]any{"name": "agent"})
	assert.Contains(t, detail.Process.Message, "the tool was allowed")
}
