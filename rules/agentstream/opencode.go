package agentstream

import "encoding/json"

// OpenCode's `run --format json` (https://opencode.ai/docs/cli/#run, and
// packages/opencode/src/cli/cmd/run.ts, which writes the events): every
// line is {type, timestamp, sessionID, part}: step_start, text, tool_use
// (a finished tool call), step_finish (reason, cost, tokens) and error.
// A step_finish whose reason is not "tool-calls" ends the answer.

type opencodeLine struct {
	SessionID string `json:"sessionID"`
	Part      struct {
		Text   string  `json:"text"`
		Tool   string  `json:"tool"`
		Finish string  `json:"reason"`
		Cost   float64 `json:"cost"`
		Tokens struct {
			Input     int64 `json:"input"`
			Output    int64 `json:"output"`
			Reasoning int64 `json:"reasoning"`
			Cache     struct {
				Read  int64 `json:"read"`
				Write int64 `json:"write"`
			} `json:"cache"`
		} `json:"tokens"`
		State struct {
			Status string          `json:"status"`
			Input  json.RawMessage `json:"input"`
			Output string          `json:"output"`
			Error  string          `json:"error"`
		} `json:"state"`
	} `json:"part"`
	Error struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
}

func decodeOpenCode(kind string, line []byte) []Event {
	var l opencodeLine
	if json.Unmarshal(line, &l) != nil {
		return nil
	}
	switch kind {
	case "step_start":
		return []Event{{Kind: KindTurn, Session: l.SessionID}}
	case "text":
		return []Event{{Kind: KindText, Text: l.Part.Text}}
	case "tool_use":
		out := l.Part.State.Output
		if l.Part.State.Error != "" {
			out = l.Part.State.Error
		}
		return []Event{
			{Kind: KindTool, Tool: l.Part.Tool, Input: oneLine(l.Part.State.Input)},
			{Kind: KindToolResult, Text: clip(out), IsError: l.Part.State.Status == "error"},
		}
	case "step_finish":
		t := l.Part.Tokens
		u := Usage{CostUSD: l.Part.Cost, InputTokens: t.Input, OutputTokens: t.Output + t.Reasoning,
			CacheReadTokens: t.Cache.Read, CacheWriteTokens: t.Cache.Write}
		if l.Part.Finish == "tool-calls" {
			return []Event{{Kind: KindOther, Usage: u}} // the answer goes on
		}
		u.Turns = 1
		return []Event{{Kind: KindResult, Session: l.SessionID, Usage: u}}
	case "error":
		text := l.Error.Data.Message
		if text == "" {
			text = l.Error.Name
		}
		return []Event{{Kind: KindResult, IsError: true, Text: text, Usage: Usage{Turns: 1}}}
	}
	return []Event{{Kind: KindOther}}
}
