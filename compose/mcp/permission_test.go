package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// permissionProject runs the stand-in of Claude Code's stream-json
// (cmd/procs/testdata/agentjson_standin.py) as process agent, with an MCP
// client whose server was started by it (Options.Agent, as PROCS_NAME
// gives procs mcp), and a control client to watch it.
func permissionProject(t *testing.T) (*runningProcs, *client, *control.Client) {
	t.Helper()
	standin, err := filepath.Abs("../../cmd/procs/testdata/agentjson_standin.py")
	require.NoError(t, err)
	dir := t.TempDir()
	p := mustStartProcs(t, dir, fmt.Sprintf(`
procs:
  agent:
    command: python3 %s claude
    agent: {protocol: claude-stream-json}
`, standin))
	c := connect(t, Options{Dir: dir, Version: "test", Agent: "agent"})
	c.waitReady(t, "agent")
	api, err := control.Dial(dir)
	require.NoError(t, err)
	t.Cleanup(api.Close)
	return p, c, api
}

// askPermission calls permission_prompt as Claude Code does, in the
// background; the channel receives the decision it returns.
func askPermission(ctx context.Context, t *testing.T, c *client) <-chan wire.PermissionDecision {
	answer := make(chan wire.PermissionDecision, 1)
	go func() {
		res, err := c.session.CallTool(ctx, &sdk.CallToolParams{Name: PermissionPromptTool, Arguments: map[string]any{
			"tool_name": "Bash", "input": map[string]any{"command": "rm -rf build"}, "tool_use_id": "toolu_1",
		}})
		// Not require: this is not the test's goroutine.
		var d wire.PermissionDecision
		if err == nil && assert.False(t, res.IsError, text(res)) && assert.NotEmpty(t, res.Content) {
			tc, ok := res.Content[0].(*sdk.TextContent)
			if assert.True(t, ok, "the first block must be text: %T", res.Content[0]) {
				assert.NoError(t, json.Unmarshal([]byte(tc.Text), &d), tc.Text)
			}
		}
		answer <- d
	}()
	return answer
}

// waitState waits until the agent is in state.
func waitState(t *testing.T, api *control.Client, state rules.State) rules.Result {
	t.Helper()
	res, err := api.Wait(testCtx(t), "agent", control.WaitOptions{For: []rules.State{state}, Timeout: testDeadline})
	require.NoError(t, err)
	require.Equal(t, state, res.State, res.Message)
	return res
}

func decision(t *testing.T, answer <-chan wire.PermissionDecision) wire.PermissionDecision {
	t.Helper()
	select {
	case d := <-answer:
		return d
	case <-time.After(testDeadline):
		t.Fatal("permission_prompt did not return")
		return wire.PermissionDecision{}
	}
}

// TestPermissionPrompt: Claude Code's --permission-prompt-tool pointed at
// procs' MCP server puts the agent in awaiting-permission with what it
// asks, and the call returns what a person answered, in the shape Claude
// Code 2.1.197 parses ({"behavior":"allow","updatedInput":{…}} or
// {"behavior":"deny","message":…}); whatever ends the wait first (the
// run stopping or restarting, procs going down) answers a denial that
// says why (issue 31 item 1).
func TestPermissionPrompt(t *testing.T) {
	tests := []struct {
		name   string
		answer func(t *testing.T, p *runningProcs, c *client)
		want   wire.PermissionDecision
		reason string
	}{
		{name: "allowed", answer: func(t *testing.T, _ *runningProcs, c *client) {
			succeed[InputSent](t, c, "send_input", map[string]any{"name": "agent", "text": "yes", "enter": true})
		}, want: wire.PermissionDecision{Behavior: "allow", UpdatedInput: json.RawMessage(`{"command":"rm -rf build"}`)}},
		{name: "denied with a reason", answer: func(t *testing.T, _ *runningProcs, c *client) {
			succeed[InputSent](t, c, "send_input", map[string]any{"name": "agent", "text": "no: the build is cached", "enter": true})
		}, want: wire.PermissionDecision{Behavior: "deny", Message: "no: the build is cached"}},
		{name: "denied", answer: func(t *testing.T, _ *runningProcs, c *client) {
			succeed[InputSent](t, c, "send_input", map[string]any{"name": "agent", "text": "n", "enter": true})
		}, want: wire.PermissionDecision{Behavior: "deny", Message: "the user denied this tool use"}},
		{name: "restarted", answer: func(t *testing.T, _ *runningProcs, c *client) {
			c.call(t, "restart_process", map[string]any{"name": "agent"})
		}, reason: "stopped"},
		{name: "stopped", answer: func(t *testing.T, _ *runningProcs, c *client) {
			c.call(t, "stop_process", map[string]any{"name": "agent"})
		}, reason: "stopped"},
		{name: "procs down", answer: func(t *testing.T, p *runningProcs, _ *client) {
			// Down may find the engine already ended: it stops fast.
			if err := p.engine.Down(); err != nil {
				require.ErrorIs(t, err, wire.ErrShuttingDown)
			}
		}, reason: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, c, api := permissionProject(t)
			answer := askPermission(testCtx(t), t, c)
			asking := waitState(t, api, rules.StateAwaitingPermission)
			assert.Contains(t, asking.Message, "asks to use Bash rm -rf build")
			st, err := api.Get(testCtx(t), "agent")
			require.NoError(t, err)
			require.NotNil(t, st.Agent)
			assert.Equal(t, "Bash rm -rf build", st.Agent.Asking)

			tt.answer(t, p, c)
			got := decision(t, answer)
			if tt.want.Behavior != "" {
				assert.Equal(t, tt.want.Behavior, got.Behavior)
				assert.JSONEq(t, string(orEmpty(tt.want.UpdatedInput)), string(orEmpty(got.UpdatedInput)))
				assert.Equal(t, tt.want.Message, got.Message)
				waitState(t, api, rules.StateBusy)
				return
			}
			assert.Equal(t, "deny", got.Behavior)
			assert.NotEmpty(t, got.Message, "a denial says why")
			assert.Contains(t, got.Message, tt.reason)
		})
	}
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// TestPermissionPromptWithdrawn: when the agent's MCP client goes away
// while it waits (the CLI hung up or died), the request is withdrawn: the
// agent is no longer awaiting permission, and the next text sent to it is
// not taken for an answer.
func TestPermissionPromptWithdrawn(t *testing.T) {
	_, c, api := permissionProject(t)
	ctx, cancel := context.WithCancel(testCtx(t))
	answer := askPermission(ctx, t, c)
	waitState(t, api, rules.StateAwaitingPermission)
	cancel()
	<-answer
	waitState(t, api, rules.StateBusy)
	st, err := api.Get(testCtx(t), "agent")
	require.NoError(t, err)
	assert.Empty(t, st.Agent.Asking)
}

// TestPermissionPromptInOrder: requests asked together are shown and
// answered one at a time, first asked first.
func TestPermissionPromptInOrder(t *testing.T) {
	_, c, api := permissionProject(t)
	first := askPermission(testCtx(t), t, c)
	waitState(t, api, rules.StateAwaitingPermission)
	second := askPermission(testCtx(t), t, c)
	require.Eventually(t, func() bool {
		st, err := api.Get(testCtx(t), "agent")
		return err == nil && st.Agent != nil && st.Agent.Asks == 2
	}, testDeadline, 20*time.Millisecond, "the second request waits behind the first")
	succeed[InputSent](t, c, "send_input", map[string]any{"name": "agent", "text": "yes", "enter": true})
	assert.Equal(t, "allow", decision(t, first).Behavior)
	waitState(t, api, rules.StateAwaitingPermission)
	succeed[InputSent](t, c, "send_input", map[string]any{"name": "agent", "text": "no", "enter": true})
	assert.Equal(t, "deny", decision(t, second).Behavior)
	waitState(t, api, rules.StateBusy)
}
