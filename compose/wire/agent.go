package wire

import (
	"fmt"
	"strings"

	"github.com/procsdev/procs/rules/agentstream"
)

// AgentStatus is the session of an agent CLI run in its JSON mode, as
// status, the API and MCP show it: what it spent and what it said last.
type AgentStatus struct {
	// Protocol is the CLI's JSON mode (claude-stream-json, codex-json…).
	Protocol string `json:"protocol"`
	// Session and Model are what the session said of itself.
	Session string `json:"session,omitempty"`
	Model   string `json:"model,omitempty"`
	// TakesInput says the session reads prompts on its input (procs
	// send, the web page's box), as Claude Code's stream-json does; the
	// others take their one prompt on their command line.
	TakesInput bool `json:"takesInput,omitempty"`
	// Run is what the current (or last) run spent; Total adds the runs
	// before it. Cost is what the protocol reports (Claude Code, OpenCode).
	Run   agentstream.Usage `json:"run"`
	Total agentstream.Usage `json:"total"`
	// Answer is the agent's last answer.
	Answer string `json:"answer,omitempty"`
	// Asking is the tool call waiting for permission, "" when none.
	Asking string `json:"asking,omitempty"`
	// Asks counts the permission requests waiting through procs' MCP
	// server (Claude Code's --permission-prompt-tool), Asking the first.
	Asks int `json:"asks,omitempty"`
}

// SpentText says what the session has spent in all, as the status table,
// the TUI and the web page show it: "$0.75 · 300 in / 30 out tokens · 3
// turns"; "" for no session or nothing spent yet. A CLI that reports no
// cost (Codex, Gemini CLI) shows its tokens alone.
func (a *AgentStatus) SpentText() string {
	if a == nil || a.Total == (agentstream.Usage{}) {
		return ""
	}
	var parts []string
	if a.Total.CostUSD > 0 {
		parts = append(parts, fmt.Sprintf("$%.2f", a.Total.CostUSD))
	}
	if a.Total.InputTokens > 0 || a.Total.OutputTokens > 0 {
		parts = append(parts, fmt.Sprintf("%d in / %d out tokens", a.Total.InputTokens, a.Total.OutputTokens))
	}
	switch a.Total.Turns {
	case 0:
	case 1:
		parts = append(parts, "1 turn")
	default:
		parts = append(parts, fmt.Sprintf("%d turns", a.Total.Turns))
	}
	return strings.Join(parts, " · ")
}
