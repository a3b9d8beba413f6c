package wire

import (
	"encoding/json"
	"errors"
)

// ErrNotAgentSession is returned when a permission request names a
// process that is not an agent CLI run in its JSON mode.
var ErrNotAgentSession = errors.New("is not an agent CLI in its JSON mode (agent: in procs.yaml)")

// PermissionRequest is an agent CLI asking, through procs' MCP server
// (Claude Code's --permission-prompt-tool), whether it may use a tool:
// the body of POST /v1/procs/{name}/permission.
type PermissionRequest struct {
	// Tool is the tool it wants to use, Input its argument as given.
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input,omitempty"`
	// ToolUseID names the tool call, when the CLI says it.
	ToolUseID string `json:"toolUseId,omitempty"`
	// Run is the run of the process that asks (PROCS_RUN in its
	// environment); 0 for whichever runs. A request of a run that has
	// been replaced is denied.
	Run int `json:"run,omitempty"`
}

// The behaviors of a PermissionDecision.
const (
	PermissionAllow = "allow"
	PermissionDeny  = "deny"
)

// PermissionDecision answers a PermissionRequest in the shape Claude
// Code's permission prompt tool returns: {"behavior":"allow",
// "updatedInput":{…}} or {"behavior":"deny","message":"…"}.
type PermissionDecision struct {
	Behavior string `json:"behavior"`
	// UpdatedInput is the input the tool runs with, when allowed.
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	// Message says why, when denied; the agent reads it.
	Message string `json:"message,omitempty"`
}

// AllowPermission allows a request with its input as asked ({} when none).
func AllowPermission(input json.RawMessage) PermissionDecision {
	if len(input) == 0 || string(input) == "null" {
		input = json.RawMessage("{}")
	}
	return PermissionDecision{Behavior: PermissionAllow, UpdatedInput: input}
}

// DenyPermission denies a request, saying why.
func DenyPermission(message string) PermissionDecision {
	if message == "" {
		message = "denied"
	}
	return PermissionDecision{Behavior: PermissionDeny, Message: message}
}
