package agentstream

import "encoding/json"

// Kind says what an Event reports.
type Kind int

// The kinds of event.
const (
	// KindOther is a line of the protocol that changes nothing procs shows
	// (a delta, a hook, a reasoning item).
	KindOther Kind = iota
	// KindInit is the start of the session (Claude's system/init, Codex's
	// thread.started, Gemini's init).
	KindInit
	// KindTurn is the start of work on a prompt (Codex's turn.started,
	// OpenCode's step_start, a prompt echoed back).
	KindTurn
	// KindText is text of the assistant.
	KindText
	// KindTool is a tool call: Tool and its Input, in one line.
	KindTool
	// KindToolResult is a tool's answer.
	KindToolResult
	// KindPermission is the CLI asking whether a tool may run (Claude's
	// control_request can_use_tool); RequestID names the request.
	KindPermission
	// KindWarning is an error the CLI goes on after (Gemini's error event
	// with severity warning).
	KindWarning
	// KindResult ends a prompt: Text is the answer or the error, IsError
	// says which, Usage what it spent.
	KindResult
)

// Event is one thing a line of the protocol says.
type Event struct {
	Kind Kind
	// Session is the session (thread) id, Model the model, on KindInit and
	// where the line carries them.
	Session, Model string
	// Text is the assistant's text, the result's answer or error text.
	Text string
	// Tool and Input are the tool call of KindTool and KindPermission;
	// Input is its argument in one line.
	Tool, Input string
	// RequestID and RawInput (the tool's input as asked) answer a
	// KindPermission.
	RequestID string
	RawInput  json.RawMessage
	// External marks a KindPermission asked through procs' MCP server
	// (PermissionAsked), answered there rather than on the CLI's input.
	External bool
	// IsError marks a failed result or tool result.
	IsError bool
	// Usage is what a KindResult reports.
	Usage Usage
}

// Usage is what an agent spent, as its protocol reports it: zero where
// the protocol does not say (only Claude Code and OpenCode report a cost).
type Usage struct {
	// CostUSD is the cost in US dollars.
	CostUSD float64 `json:"costUsd"`
	// InputTokens, OutputTokens, CacheReadTokens and CacheWriteTokens are
	// the tokens of the model calls.
	InputTokens      int64 `json:"inputTokens"`
	OutputTokens     int64 `json:"outputTokens"`
	CacheReadTokens  int64 `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int64 `json:"cacheWriteTokens,omitempty"`
	// Turns counts the results (one per prompt answered or failed).
	Turns int `json:"turns"`
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.CostUSD += o.CostUSD
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheWriteTokens += o.CacheWriteTokens
	u.Turns += o.Turns
}

// Sub returns u less o, field by field, none below zero: what was spent
// since o was what u says now.
func (u Usage) Sub(o Usage) Usage {
	return Usage{
		CostUSD:          max(u.CostUSD-o.CostUSD, 0),
		InputTokens:      max(u.InputTokens-o.InputTokens, 0),
		OutputTokens:     max(u.OutputTokens-o.OutputTokens, 0),
		CacheReadTokens:  max(u.CacheReadTokens-o.CacheReadTokens, 0),
		CacheWriteTokens: max(u.CacheWriteTokens-o.CacheWriteTokens, 0),
		Turns:            max(u.Turns-o.Turns, 0),
	}
}

// IsZero reports whether nothing was spent nor any turn ended.
func (u Usage) IsZero() bool { return u == Usage{} }
