package agentstream

import (
	"encoding/json"
	"strings"
)

// Claude Code's stream-json, as its docs show it
// (https://docs.claude.com/en/docs/claude-code/sdk/sdk-headless, "Streaming
// JSON output" and "Streaming JSON input"; the message types of
// https://docs.claude.com/en/docs/claude-code/sdk/sdk-typescript, "Message
// Types"): a system/init message, assistant and user messages whose content
// blocks are text, tool_use and tool_result, and one result per prompt.

type claudeLine struct {
	Subtype   string `json:"subtype"`
	SessionID string `json:"session_id"`
	Model     string `json:"model"`
	Message   struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	// result
	IsError bool            `json:"is_error"`
	Result  string          `json:"result"`
	Errors  json.RawMessage `json:"errors"`
	Cost    float64         `json:"total_cost_usd"`
	Usage   struct {
		Input      int64 `json:"input_tokens"`
		Output     int64 `json:"output_tokens"`
		CacheRead  int64 `json:"cache_read_input_tokens"`
		CacheWrite int64 `json:"cache_creation_input_tokens"`
	} `json:"usage"`
	// control_request (permission asked on stdio)
	RequestID string `json:"request_id"`
	Request   struct {
		Subtype  string          `json:"subtype"`
		ToolName string          `json:"tool_name"`
		Input    json.RawMessage `json:"input"`
	} `json:"request"`
}

type claudeBlock struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Name    string          `json:"name"`
	Input   json.RawMessage `json:"input"`
	Content json.RawMessage `json:"content"`
	IsError bool            `json:"is_error"`
}

func decodeClaude(kind string, line []byte) []Event {
	var l claudeLine
	if json.Unmarshal(line, &l) != nil {
		return nil
	}
	switch kind {
	case "system":
		if l.Subtype == "init" {
			return []Event{{Kind: KindInit, Session: l.SessionID, Model: l.Model}}
		}
	case "assistant", "user":
		return claudeBlocks(kind, l.Message.Content)
	case "result":
		text := l.Result
		if text == "" {
			text = claudeErrors(l.Errors)
		}
		isError := l.IsError || strings.HasPrefix(l.Subtype, "error")
		if text == "" && isError {
			text = l.Subtype
		}
		return []Event{{Kind: KindResult, Session: l.SessionID, Text: text, IsError: isError, Usage: Usage{
			CostUSD: l.Cost, InputTokens: l.Usage.Input, OutputTokens: l.Usage.Output,
			CacheReadTokens: l.Usage.CacheRead, CacheWriteTokens: l.Usage.CacheWrite, Turns: 1,
		}}}
	case "control_request":
		if l.Request.Subtype == "can_use_tool" {
			return []Event{{Kind: KindPermission, RequestID: l.RequestID, Tool: l.Request.ToolName, Input: oneLine(l.Request.Input), RawInput: l.Request.Input}}
		}
	}
	return []Event{{Kind: KindOther}}
}

// claudeBlocks reads the content of an assistant or user message: a user
// message with text is a prompt (echoed with --replay-user-messages).
func claudeBlocks(role string, content json.RawMessage) []Event {
	var blocks []claudeBlock
	if json.Unmarshal(content, &blocks) != nil {
		if role == "user" && textOf(content) != "" {
			return []Event{{Kind: KindTurn, Text: textOf(content)}}
		}
		return []Event{{Kind: KindOther}}
	}
	var events []Event
	for _, b := range blocks {
		switch {
		case b.Type == "text" && role == "assistant":
			events = append(events, Event{Kind: KindText, Text: b.Text})
		case b.Type == "text":
			events = append(events, Event{Kind: KindTurn, Text: b.Text})
		case b.Type == "tool_use":
			events = append(events, Event{Kind: KindTool, Tool: b.Name, Input: oneLine(b.Input)})
		case b.Type == "tool_result":
			events = append(events, Event{Kind: KindToolResult, Text: clip(textOf(b.Content)), IsError: b.IsError})
		}
	}
	if len(events) == 0 {
		events = []Event{{Kind: KindOther}}
	}
	return events
}

// claudeErrors joins the errors list of an error result.
func claudeErrors(v json.RawMessage) string {
	var list []string
	if json.Unmarshal(v, &list) == nil {
		return strings.Join(list, "; ")
	}
	return ""
}

// UserMessage is a prompt as Claude Code reads it with --input-format
// stream-json: {"type":"user","message":{"role":"user","content":TEXT}},
// one line.
func UserMessage(text string) []byte {
	msg := map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}}
	b, _ := json.Marshal(msg)
	return append(b, '\n')
}

// PermissionAnswer is the answer to a permission request (a control_request
// can_use_tool): allow runs the tool as asked, otherwise it is denied with
// the message given.
func PermissionAnswer(ask Event, allow bool, message string) []byte {
	response := map[string]any{"behavior": "deny", "message": message}
	if allow {
		input := ask.RawInput
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		response = map[string]any{"behavior": "allow", "updatedInput": input}
	}
	msg := map[string]any{"type": "control_response", "response": map[string]any{
		"subtype": "success", "request_id": ask.RequestID, "response": response,
	}}
	b, _ := json.Marshal(msg)
	return append(b, '\n')
}

// Allows reads a person's answer to a permission request: yes, y, allow
// (any case) allow; anything else denies, with that text as the reason.
func Allows(answer string) bool {
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes", "allow", "ok", "1":
		return true
	}
	return false
}

// PermissionAsked is a permission request that came through another
// channel than the CLI's output: Claude Code calling its
// --permission-prompt-tool, an MCP tool, with the tool's name, its input
// and the tool call's id.
func PermissionAsked(tool string, input json.RawMessage, toolUseID string) Event {
	return Event{Kind: KindPermission, RequestID: toolUseID, Tool: tool, Input: oneLine(input), RawInput: input, External: true}
}
