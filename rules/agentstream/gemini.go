package agentstream

import "encoding/json"

// Gemini CLI's `--output-format stream-json`, as its docs show it
// (https://geminicli.com/docs/cli/headless/, "Streaming JSON output"):
// init (session id, model), message (user and assistant chunks), tool_use,
// tool_result, error (non-fatal) and result (status, error, stats).

type geminiLine struct {
	SessionID  string          `json:"session_id"`
	Model      string          `json:"model"`
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	ToolName   string          `json:"tool_name"`
	Parameters json.RawMessage `json:"parameters"`
	Status     string          `json:"status"`
	Output     string          `json:"output"`
	Severity   string          `json:"severity"`
	Message    string          `json:"message"`
	Error      *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	Stats struct {
		Input  int64 `json:"input_tokens"`
		Output int64 `json:"output_tokens"`
		Cached int64 `json:"cached"`
	} `json:"stats"`
}

func decodeGemini(kind string, line []byte) []Event {
	var l geminiLine
	if json.Unmarshal(line, &l) != nil {
		return nil
	}
	switch kind {
	case "init":
		return []Event{{Kind: KindInit, Session: l.SessionID, Model: l.Model}}
	case "message":
		if l.Role == "user" {
			return []Event{{Kind: KindTurn, Text: l.Content}}
		}
		return []Event{{Kind: KindText, Text: l.Content}}
	case "tool_use":
		return []Event{{Kind: KindTool, Tool: l.ToolName, Input: oneLine(l.Parameters)}}
	case "tool_result":
		text := l.Output
		if l.Error != nil {
			text = l.Error.Message
		}
		return []Event{{Kind: KindToolResult, Text: clip(text), IsError: l.Status == "error"}}
	case "error":
		return []Event{{Kind: KindWarning, Text: l.Message}}
	case "result":
		ev := Event{Kind: KindResult, IsError: l.Status != "success", Usage: Usage{
			InputTokens: l.Stats.Input, OutputTokens: l.Stats.Output, CacheReadTokens: l.Stats.Cached, Turns: 1,
		}}
		if l.Error != nil {
			ev.IsError, ev.Text = true, l.Error.Message
		}
		return []Event{ev}
	}
	return []Event{{Kind: KindOther}}
}
