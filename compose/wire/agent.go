package wire

import "github.com/procsdev/procs/rules/agentstream"

// AgentStatus is the session of an agent CLI run in its JSON mode, as
// status, the API and MCP show it: what it spent and what it said last.
type AgentStatus struct {
	// Protocol is the CLI's JSON mode (claude-stream-json, codex-json…).
	Protocol string `json:"protocol"`
	// Session and Model are what the session said of itself.
	Session string `json:"session,omitempty"`
	Model   string `json:"model,omitempty"`
	// Run is what the current (or last) run spent; Total adds the runs
	// before it. Cost is what the protocol reports (Claude Code, OpenCode).
	Run   agentstream.Usage `json:"run"`
	Total agentstream.Usage `json:"total"`
	// Answer is the agent's last answer.
	Answer string `json:"answer,omitempty"`
	// Asking is the tool call waiting for permission, "" when none.
	Asking string `json:"asking,omitempty"`
}
