package agentstream

import (
	"encoding/json"
	"strings"
)

// Decode reads one line of protocol p. ok is false when the line is not a
// JSON object (a CLI's plain-text warning or crash): the caller shows it
// as it is.
func (p Protocol) Decode(line string) (events []Event, ok bool) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "{") {
		return nil, false
	}
	var raw map[string]json.RawMessage
	if json.Unmarshal([]byte(line), &raw) != nil {
		return nil, false
	}
	var kind string
	_ = json.Unmarshal(raw["type"], &kind)
	switch p {
	case Claude:
		return decodeClaude(kind, []byte(line)), true
	case Codex:
		return decodeCodex(kind, []byte(line)), true
	case Gemini:
		return decodeGemini(kind, []byte(line)), true
	case OpenCode:
		return decodeOpenCode(kind, []byte(line)), true
	}
	return nil, false
}

// oneLine is a JSON value (a tool's input) in one line, cut to a width a
// terminal shows.
func oneLine(v json.RawMessage) string {
	if len(v) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return clip(s)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) == nil {
		// The argument people look for first (Bash's command, Read's path).
		for _, key := range []string{"command", "file_path", "filePath", "path", "pattern", "url", "query", "prompt"} {
			if json.Unmarshal(m[key], &s) == nil && s != "" {
				return clip(s)
			}
		}
	}
	return clip(string(v))
}

// textOf reads a string or a list of {type: text, text} blocks.
func textOf(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var blocks []struct{ Type, Text string }
	if json.Unmarshal(v, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// clipWidth is how much of a tool input or output one line shows.
const clipWidth = 160

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > clipWidth {
		return string(r[:clipWidth-1]) + "…"
	}
	return s
}
