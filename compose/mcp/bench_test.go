package mcp

import (
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/procsdev/procs/internal/benchmetric"
)

// BenchmarkRestartProcessTool measures the restart_process tool end to end
// through an in-memory MCP session, for a process ready on its first line:
// MCP framing, the control API round trip, stopping the old run's process
// group and starting and detecting the new one.
func BenchmarkRestartProcessTool(b *testing.B) {
	c := project(b, `
procs:
  web:
    command: echo ready; sleep 300
    readyPatterns: [ready]
`)
	c.waitReady(b, "web")
	var samples []time.Duration
	for b.Loop() {
		began := time.Now()
		res, err := c.session.CallTool(b.Context(), &sdk.CallToolParams{Name: "restart_process", Arguments: map[string]any{"name": "web"}})
		if err != nil || res.IsError {
			b.Fatalf("restart_process: %v %s", err, text(res))
		}
		samples = append(samples, time.Since(began))
	}
	benchmetric.ReportPercentiles(b, "ms", samples)
}

// BenchmarkListProcessesTool measures list_processes with one process.
func BenchmarkListProcessesTool(b *testing.B) {
	c := project(b, `
procs:
  web:
    command: echo ready; sleep 300
    readyPatterns: [ready]
`)
	c.waitReady(b, "web")
	var samples []time.Duration
	for b.Loop() {
		began := time.Now()
		res, err := c.session.CallTool(b.Context(), &sdk.CallToolParams{Name: "list_processes"})
		if err != nil || res.IsError {
			b.Fatalf("list_processes: %v %s", err, text(res))
		}
		samples = append(samples, time.Since(began))
	}
	benchmetric.ReportPercentiles(b, "ms", samples)
}
