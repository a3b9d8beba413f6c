package control

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/procsdev/procs/internal/benchmetric"
)

// BenchmarkRestartInstantlyReady measures a restart with wait of a process
// that is ready on its first line, through the API.
func BenchmarkRestartInstantlyReady(b *testing.B) {
	h := startHarness(b, oneService)
	h.waitReady(b, "web")
	var samples []time.Duration
	for b.Loop() {
		began := time.Now()
		res, err := h.client.Restart(b.Context(), "web", ActionOptions{})
		if err != nil || !res.Success {
			b.Fatalf("restart: %v %s", err, res.Message)
		}
		samples = append(samples, time.Since(began))
	}
	benchmetric.ReportPercentiles(b, "ms", samples)
}

// BenchmarkStatus50 measures GET /v1/procs with 50 processes.
func BenchmarkStatus50(b *testing.B) {
	var cfg strings.Builder
	cfg.WriteString("procs:\n")
	for i := range 50 {
		fmt.Fprintf(&cfg, "  p%02d:\n    command: echo ready; sleep 300\n    readyPatterns: [ready]\n", i)
	}
	h := startHarness(b, cfg.String())
	for i := range 50 {
		h.waitReady(b, fmt.Sprintf("p%02d", i))
	}
	var samples []time.Duration
	for b.Loop() {
		began := time.Now()
		list, err := h.client.List(b.Context())
		if err != nil || len(list) != 50 {
			b.Fatalf("list: %v (%d)", err, len(list))
		}
		samples = append(samples, time.Since(began))
	}
	benchmetric.ReportPercentiles(b, "ms", samples)
}
