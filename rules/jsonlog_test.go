package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A structured log line is quoted by its message and error, as a person
// reads it: the rest (time, level, pid, fields) is in the log.
func TestQuoteStructuredLines(t *testing.T) {
	for line, want := range map[string]string{
		// pino (fastify's logger), with its err object.
		`{"level":50,"time":1732790000000,"pid":12,"hostname":"h","err":{"type":"Error","message":"listen EADDRINUSE: address already in use 0.0.0.0:3000","stack":"Error: listen EADDRINUSE\n    at Server.setupListenHandle"},"msg":"listen EADDRINUSE: address already in use 0.0.0.0:3000"}`: `"listen EADDRINUSE: address already in use 0.0.0.0:3000"`,
		// Go's log/slog JSON handler.
		`{"time":"2026-11-28T10:00:00Z","level":"ERROR","msg":"server failed","err":"listen tcp :8080: bind: address already in use"}`: `"server failed: listen tcp :8080: bind: address already in use"`,
		// Caddy (zap), as captured.
		`{"level":"info","ts":1795385210.4944024,"msg":"Caddy serving static files on 127.0.0.1:28301"}`: `"Caddy serving static files on 127.0.0.1:28301"`,
		// MongoDB.
		`{"t":{"$date":"2026-11-28T10:00:00.000+00:00"},"s":"I","c":"NETWORK","id":23016,"ctx":"listener","msg":"Waiting for connections","attr":{"port":27017,"ssl":"off"}}`: `"Waiting for connections"`,
		// winston and python-json-logger say message; structlog, event.
		`{"level":"error","message":"connect ECONNREFUSED 127.0.0.1:5432"}`: `"connect ECONNREFUSED 127.0.0.1:5432"`,
		`{"event":"worker started","logger":"app","level":"info"}`:          `"worker started"`,
		// Not a log line, or no message: quoted as it is.
		`{"port": 3000}`:       `"{\"port\": 3000}"`,
		`{not json}`:           `"{not json}"`,
		`  plain text line  `:  `"plain text line"`,
		`{"msg":"   "}`:        `"{\"msg\":\"   \"}"`,
		`{"msg":"a","err":{}}`: `"a"`,
		// A banner's box is not quoted (Storybook 8.6, as captured).
		"│   Storybook 8.6.19 for react-vite started                               │": `"Storybook 8.6.19 for react-vite started"`,
	} {
		assert.Equal(t, want, quote(line), line)
	}
}
