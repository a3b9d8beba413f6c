package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkLoad200 loads a procs.yaml of 200 processes in a dependency
// tree, as `procs up` does before it starts the first one: every
// millisecond here is one before any process runs.
func BenchmarkLoad200(b *testing.B) {
	var cfg strings.Builder
	cfg.WriteString("procs:\n")
	for i := range 200 {
		fmt.Fprintf(&cfg, "  p%03d:\n    command: echo ready; exec sleep 300\n    readyPatterns: [ready]\n", i)
		if i > 0 {
			fmt.Fprintf(&cfg, "    dependsOn: [p%03d]\n", (i-1)/2)
		}
	}
	file := filepath.Join(b.TempDir(), "procs.yaml")
	if err := os.WriteFile(file, []byte(cfg.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	environ := []string{"HOME=/nonexistent", "PATH=/usr/bin:/bin"}
	for b.Loop() {
		if _, err := Load(LoadOptions{File: file, Environ: environ}); err != nil {
			b.Fatal(err)
		}
	}
}
