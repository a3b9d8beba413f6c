package agentstream

import (
	"encoding/json"
	"strings"
)

// Codex's `exec --json`, as its docs show it
// (https://developers.openai.com/codex/noninteractive, "JSON output";
// codex-rs/exec/src/exec_events.rs): thread.started, turn.started,
// item.started/updated/completed (agent_message, reasoning,
// command_execution, file_change, mcp_tool_call, web_search, todo_list,
// error), turn.completed with usage, turn.failed, error.

type codexLine struct {
	ThreadID string `json:"thread_id"`
	Message  string `json:"message"`
	Error    struct {
		Message string `json:"message"`
	} `json:"error"`
	Usage struct {
		Input       int64 `json:"input_tokens"`
		CachedInput int64 `json:"cached_input_tokens"`
		Output      int64 `json:"output_tokens"`
	} `json:"usage"`
	Item struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Command  string          `json:"command"`
		Output   string          `json:"aggregated_output"`
		ExitCode *int            `json:"exit_code"`
		Status   string          `json:"status"`
		Server   string          `json:"server"`
		Tool     string          `json:"tool"`
		Query    string          `json:"query"`
		Message  string          `json:"message"`
		Changes  json.RawMessage `json:"changes"`
	} `json:"item"`
}

func decodeCodex(kind string, line []byte) []Event {
	var l codexLine
	if json.Unmarshal(line, &l) != nil {
		return nil
	}
	switch kind {
	case "thread.started":
		return []Event{{Kind: KindInit, Session: l.ThreadID}}
	case "turn.started":
		return []Event{{Kind: KindTurn}}
	case "turn.completed":
		return []Event{{Kind: KindResult, Usage: Usage{
			InputTokens: l.Usage.Input, OutputTokens: l.Usage.Output, CacheReadTokens: l.Usage.CachedInput, Turns: 1,
		}}}
	case "turn.failed":
		return []Event{{Kind: KindResult, IsError: true, Text: l.Error.Message, Usage: Usage{Turns: 1}}}
	case "error":
		return []Event{{Kind: KindWarning, Text: l.Message}}
	case "item.started":
		return codexItemStarted(l)
	case "item.completed":
		return codexItemCompleted(l)
	}
	return []Event{{Kind: KindOther}}
}

func codexItemStarted(l codexLine) []Event {
	switch l.Item.Type {
	case "command_execution":
		return []Event{{Kind: KindTool, Tool: "shell", Input: clip(l.Item.Command)}}
	case "mcp_tool_call":
		return []Event{{Kind: KindTool, Tool: strings.Trim(l.Item.Server+"."+l.Item.Tool, ".")}}
	case "web_search":
		return []Event{{Kind: KindTool, Tool: "web_search", Input: clip(l.Item.Query)}}
	}
	return []Event{{Kind: KindOther}}
}

func codexItemCompleted(l codexLine) []Event {
	switch l.Item.Type {
	case "agent_message":
		return []Event{{Kind: KindText, Text: l.Item.Text}}
	case "command_execution", "mcp_tool_call":
		failed := l.Item.Status == "failed" || (l.Item.ExitCode != nil && *l.Item.ExitCode != 0)
		return []Event{{Kind: KindToolResult, Text: clip(l.Item.Output), IsError: failed}}
	case "file_change":
		return []Event{{Kind: KindTool, Tool: "edit", Input: oneLine(l.Item.Changes)}}
	case "error":
		return []Event{{Kind: KindWarning, Text: l.Item.Message}}
	}
	return []Event{{Kind: KindOther}}
}
