package rules

import (
	"encoding/json"
	"strings"
)

// jsonLogText is what a person reads of a structured log line (a JSON
// object, as pino, slog, zap, Caddy and MongoDB write): its message, with
// the error it carries after it. ok is false for any other line, and for
// an object with no message, which is quoted as it is.
func jsonLogText(line string) (text string, ok bool) {
	if !strings.HasPrefix(line, "{") || !strings.HasSuffix(line, "}") {
		return "", false
	}
	var fields map[string]any
	if json.Unmarshal([]byte(line), &fields) != nil {
		return "", false
	}
	msg := stringField(fields, "msg", "message", "event")
	if msg == "" {
		return "", false
	}
	if e := errorField(fields); e != "" && !strings.Contains(msg, e) {
		msg += ": " + e
	}
	return msg, true
}

// errorField is the error a structured line carries: a string under err,
// error or exception, or the message of an object there (pino's err).
func errorField(fields map[string]any) string {
	for _, key := range []string{"err", "error", "exception"} {
		switch v := fields[key].(type) {
		case string:
			return v
		case map[string]any:
			if m := stringField(v, "message", "msg"); m != "" {
				return m
			}
		}
	}
	return ""
}

// stringField is the first of keys that fields holds as a non-empty string.
func stringField(fields map[string]any, keys ...string) string {
	for _, key := range keys {
		if s, ok := fields[key].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}
