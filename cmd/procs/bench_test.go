package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/procsdev/procs/internal/benchmetric"
)

// The CLI benchmarks: whole `procs` commands, client process
// start included, against a `procs up -d` in a temporary project.
//
//	go test ./cmd/procs -run '^$' -bench CLI -benchtime 50x

// buildProcs builds the procs binary into a temporary folder.
func buildProcs(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "procs")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("build procs: %v\n%s", err, out)
	}
	return bin
}

// cliProject runs `procs up -d --wait` on yamlText and returns a function
// running procs commands in that project; `procs down` runs at cleanup.
func cliProject(b *testing.B, yamlText string) func(args ...string) (string, error) {
	b.Helper()
	bin := buildProcs(b)
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte(yamlText), 0o644); err != nil {
		b.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+dir)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("up", "-d", "--wait"); err != nil {
		b.Fatalf("procs up -d --wait: %v\n%s", err, out)
	}
	b.Cleanup(func() { _, _ = run("down") })
	return run
}

// timeCommand runs one procs command per benchmark iteration and reports
// p50/p99 of its wall time.
func timeCommand(b *testing.B, run func(args ...string) (string, error), args ...string) {
	var samples []time.Duration
	for b.Loop() {
		began := time.Now()
		if out, err := run(args...); err != nil {
			b.Fatalf("procs %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		samples = append(samples, time.Since(began))
	}
	benchmetric.ReportPercentiles(b, "ms", samples)
}

// BenchmarkCLIRestart is `procs restart web` for a process ready on its
// first line: command start to exit, the new run ready.
func BenchmarkCLIRestart(b *testing.B) {
	run := cliProject(b, "procs:\n  web:\n    command: echo ready; exec sleep 300\n    readyPatterns: [ready]\n")
	timeCommand(b, run, "restart", "web")
}

// BenchmarkCLIStatus50 is `procs status --json` with 50 processes.
func BenchmarkCLIStatus50(b *testing.B) {
	var cfg strings.Builder
	cfg.WriteString("procs:\n")
	for i := range 50 {
		fmt.Fprintf(&cfg, "  p%02d:\n    command: echo ready; exec sleep 300\n    readyPatterns: [ready]\n", i)
	}
	run := cliProject(b, cfg.String())
	timeCommand(b, run, "status", "--json")
}
