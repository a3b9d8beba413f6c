package rules

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkDetectorLine measures one line of output through the splitter
// (with ANSI stripping), five patterns and a rule. The ready line has been
// seen but the rule is false, so every line runs all patterns and the rule:
// the most a line costs while starting.
func BenchmarkDetectorLine(b *testing.B) {
	for _, bc := range []struct{ name, line string }{
		{"plain", "2026/11/22 17:48:41 GET /api/users 200 1.2ms user=42 request_id=abc123\n"},
		{"ansi", "\x1b[2m17:48:41\x1b[22m \x1b[32mGET\x1b[39m /api/users \x1b[1m200\x1b[22m in 1.2ms\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			spec := &Spec{
				ReadyPatterns:    mustPatterns(b, `listening on .*:8080`),
				ErrorPatterns:    mustPatterns(b, `panic:`, `address already in use`, `^(FATAL|ERROR):`),
				NotReadyPatterns: mustPatterns(b, `\(y/n\)`),
				Rule:             mustRule(b, `log.matches("migrations done") && port.open`),
				Port:             8080,
			}
			now := time.Now()
			d := NewDetector(spec, 1, now)
			d.Handle(Event{Kind: EventLine, Time: now, Line: Line{Text: "listening on 0.0.0.0:8080"}})
			split := NewSplitter(StreamStdout, DefaultMaxLine, func(l Line) {
				d.Handle(Event{Kind: EventLine, Time: now, Line: l})
			})
			split.SetClock(func() time.Time { return now })
			line := []byte(bc.line)
			b.ReportAllocs()
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				_, _ = split.Write(line)
			}
			if d.Verdict().State != StateStarting {
				b.Fatalf("verdict %+v", d.Verdict())
			}
		})
	}
}

// BenchmarkRingMemory reports the heap one process's ring holds (KiB/ring):
// after the one line an idle server prints, and after many 80-byte lines.
func BenchmarkRingMemory(b *testing.B) {
	line := []byte(strings.Repeat("x", 79) + "\n")
	for _, bc := range []struct {
		name  string
		lines int
	}{{"idle-1-line", 1}, {"busy-5000-lines", 5000}} {
		b.Run(bc.name, func(b *testing.B) {
			const rings = 50
			var perRing float64
			for b.Loop() {
				all := make([]*Ring, rings)
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for i := range all {
					all[i] = NewRing(1000)
					split := NewSplitter(StreamStdout, DefaultMaxLine, all[i].Add)
					for range bc.lines {
						_, _ = split.Write(line)
					}
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				perRing = float64(after.HeapAlloc-before.HeapAlloc) / rings / 1024
				runtime.KeepAlive(all)
			}
			b.ReportMetric(perRing, "KiB/ring")
		})
	}
}
