package mcp

import (
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/wire"
)

// PermissionPromptTool is the name of the tool Claude Code calls, given
// --permission-prompt-tool mcp__procs__permission_prompt, to ask whether
// it may use a tool.
const PermissionPromptTool = "permission_prompt"

// permissionArgs are the arguments Claude Code passes to its permission
// prompt tool (the schema in Claude Code 2.1.197: tool_name, input,
// tool_use_id), and the process that asks, for other callers.
type permissionArgs struct {
	ToolName  string         `json:"tool_name" jsonschema:"the tool the agent wants to use"`
	Input     map[string]any `json:"input,omitempty" jsonschema:"the tool's input"`
	ToolUseID string         `json:"tool_use_id,omitempty" jsonschema:"the tool call's id"`
	Process   string         `json:"process,omitempty" jsonschema:"the agent process that asks, as list_processes names it; by default the one that started this server (PROCS_NAME)"`
}

func (s *Server) addPermissionTool() {
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  PermissionPromptTool,
		Title: "Ask a person whether an agent may use a tool",
		Description: "For Claude Code's --permission-prompt-tool mcp__procs__" + PermissionPromptTool + ", not for models: the agent " +
			"process that started this server shows awaiting-permission with the tool and its input, and the call returns " +
			`{"behavior":"allow","updatedInput":…} or {"behavior":"deny","message":…} once a person answers with ` +
			`procs send NAME yes (or no, or a reason), the web page or send_input.`,
		InputSchema: inputSchema[permissionArgs](nil),
	}, s.permissionPrompt)
}

// permissionPrompt holds the call until the request is answered; anything
// that keeps procs from asking is a denial that says why, which Claude
// Code shows the model, rather than an error that ends its turn.
func (s *Server) permissionPrompt(ctx context.Context, _ *sdk.CallToolRequest, in permissionArgs) (*sdk.CallToolResult, any, error) {
	decision := s.askPermission(ctx, in)
	// Claude Code reads the first content block, a text holding the JSON.
	text, err := json.Marshal(decision)
	if err != nil {
		return nil, nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(text)}}}, nil, nil
}

func (s *Server) askPermission(ctx context.Context, in permissionArgs) wire.PermissionDecision {
	name, run := in.Process, 0
	if name == "" {
		name, run = s.opts.Agent, s.opts.AgentRun
	}
	c, err := s.connect()
	if err != nil {
		return wire.DenyPermission(err.Error())
	}
	defer c.Close()
	input, err := json.Marshal(in.Input)
	if err != nil {
		return wire.DenyPermission(err.Error())
	}
	decision, err := c.AskPermission(ctx, name, wire.PermissionRequest{Tool: in.ToolName, Input: input, ToolUseID: in.ToolUseID, Run: run})
	if err != nil {
		return wire.DenyPermission(err.Error())
	}
	return decision
}
