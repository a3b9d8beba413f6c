package compose

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/internal/benchmetric"
	"github.com/procsdev/procs/internal/floor"
	"github.com/procsdev/procs/rules"
)

// The benchmarks of the engine. Run them with
//
//	go test ./compose -run '^$' -bench . -benchtime 100x
//
// BenchmarkShutdown runs benchProcs processes per iteration: -benchtime
// 10x is plenty. (BenchmarkSpawn is compose/contain's.)
//
// (BenchmarkIdle50 runs 10 s per iteration; add -benchtime 1x for it alone).

// benchEngine runs yamlText until stop is called; events go to the
// returned subscription.
func benchEngine(b *testing.B, yamlText string) (*Subscription, func()) {
	b.Helper()
	dir := b.TempDir()
	file := filepath.Join(dir, "procs.yaml")
	if err := os.WriteFile(file, []byte(yamlText), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Load(config.LoadOptions{File: file, Environ: os.Environ()})
	if err != nil {
		b.Fatal(err)
	}
	e, err := New(cfg, Options{NoWatchdog: true})
	if err != nil {
		b.Fatal(err)
	}
	sub := e.Bus().Subscribe(true)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _, _ = e.Run(ctx); close(done) }()
	return sub, func() { cancel(); <-done }
}

// eventLog reads a subscription, keeping what it has read so that events
// can be looked up in any order.
type eventLog struct {
	sub  *Subscription
	seen []Event
}

// find returns the first event matching match, reading more as needed and
// failing after a minute.
func (l *eventLog) find(b *testing.B, match func(Event) bool) Event {
	b.Helper()
	deadline := time.After(time.Minute)
	for i := 0; ; i++ {
		for ; i < len(l.seen); i++ {
			if match(l.seen[i]) {
				return l.seen[i]
			}
		}
		select {
		case <-l.sub.Ready():
			evs, _ := l.sub.Next()
			l.seen = append(l.seen, evs...)
			i--
		case <-deadline:
			b.Fatal("timed out waiting for an event")
		}
	}
}

// BenchmarkReadyToDependentStart measures how long after A's ready line is
// read the engine starts B, which depends on A (and how long until B's first
// output, which adds the fork and exec of sh).
func BenchmarkReadyToDependentStart(b *testing.B) {
	var toStart, toOutput []time.Duration
	for b.Loop() {
		sub, stop := benchEngine(b, `
procs:
  a: {command: "echo ready; exec sleep 300", readyPatterns: [ready]}
  b: {command: "echo hello; exec sleep 300", dependsOn: [a]}
`)
		events := &eventLog{sub: sub}
		readyLine := events.find(b, func(ev Event) bool { return ev.Type == EventLine && ev.Proc == "a" })
		started := events.find(b, func(ev Event) bool { return ev.Type == EventState && ev.Proc == "b" && ev.To == rules.StateStarting })
		output := events.find(b, func(ev Event) bool { return ev.Type == EventLine && ev.Proc == "b" })
		toStart = append(toStart, started.Time.Sub(readyLine.Time))
		toOutput = append(toOutput, output.Time.Sub(readyLine.Time))
		stop()
	}
	benchmetric.ReportPercentiles(b, "start-ms", toStart)
	benchmetric.ReportPercentiles(b, "output-ms", toOutput)
}

// BenchmarkReadyLineToReady measures a server that binds its port late
// (after a second, when the port watcher's next look may be 50 ms away), then
// says it listens: from its ready line to the ready verdict. The port is
// looked at on the line itself, so this is the time the look takes, not
// the watcher's next step.
func BenchmarkReadyLineToReady(b *testing.B) {
	var took []time.Duration
	for b.Loop() {
		port := freePort(&testing.T{})
		sub, stop := benchEngine(b, fmt.Sprintf(`
procs:
  web:
    command: >-
      python3 -c "import socket, time; time.sleep(1); s = socket.socket();
      s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', %[1]d)); s.listen();
      print('listening on port %[1]d', flush=True); time.sleep(300)"
    port: %[1]d
    framework: none
    readyPatterns: [listening]
`, port))
		events := &eventLog{sub: sub}
		line := events.find(b, func(ev Event) bool { return ev.Type == EventLine && ev.Proc == "web" })
		ready := events.find(b, func(ev Event) bool { return ev.Type == EventState && ev.Proc == "web" && ev.To == rules.StateReady })
		took = append(took, ready.Time.Sub(line.Time))
		stop()
	}
	benchmetric.ReportPercentiles(b, "line-to-ready-ms", took)
}

// BenchmarkPortToReady measures a server whose readiness is its port
// alone (no line says it listens): from the bind, stamped by the server
// with the wall clock, to the ready verdict. The bind comes at a different
// moment of the watcher's schedule in each iteration (1 to 2 s after the
// start), so the figure is the schedule's lag, not one lucky step.
func BenchmarkPortToReady(b *testing.B) {
	var took []time.Duration
	for i := 0; b.Loop(); i++ {
		port := freePort(&testing.T{})
		delay := 1 + float64(i%10)/10
		sub, stop := benchEngine(b, fmt.Sprintf(`
procs:
  web:
    command: >-
      python3 -c "import socket, time; time.sleep(%[2]g); s = socket.socket();
      s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('127.0.0.1', %[1]d)); s.listen();
      print(time.time_ns(), flush=True); time.sleep(300)"
    port: %[1]d
    framework: none
`, port, delay))
		events := &eventLog{sub: sub}
		ready := events.find(b, func(ev Event) bool { return ev.Type == EventState && ev.Proc == "web" && ev.To == rules.StateReady })
		line := events.find(b, func(ev Event) bool { return ev.Type == EventLine && ev.Proc == "web" })
		bound, err := strconv.ParseInt(strings.TrimSpace(line.Line), 10, 64)
		if err != nil {
			b.Fatalf("the server's stamp %q: %v", line.Line, err)
		}
		took = append(took, ready.Time.Sub(time.Unix(0, bound)))
		stop()
	}
	benchmetric.ReportPercentiles(b, "bind-to-ready-ms", took)
}

// BenchmarkNew200 measures compose.New for the config of Benchmark200Tree:
// detection, the start order and the machine, all made before the first
// process can start.
func BenchmarkNew200(b *testing.B) {
	file := filepath.Join(b.TempDir(), "procs.yaml")
	if err := os.WriteFile(file, []byte(tree200Config()), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg, err := config.Load(config.LoadOptions{File: file, Environ: os.Environ()})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(cfg, Options{LogDir: filepath.Join(filepath.Dir(file), "logs")}); err != nil {
			b.Fatal(err)
		}
	}
}

// tree200Config is a procs.yaml of 200 processes in a binary dependency
// tree, each ready on its first line.
func tree200Config() string {
	var cfg strings.Builder
	cfg.WriteString("procs:\n")
	for i := range 200 {
		fmt.Fprintf(&cfg, "  p%03d:\n    command: echo ready; exec sleep 300\n    readyPatterns: [ready]\n", i)
		if i > 0 {
			fmt.Fprintf(&cfg, "    dependsOn: [p%03d]\n", (i-1)/2)
		}
	}
	return cfg.String()
}

// Benchmark200Tree measures launch (config load included) to all ready for
// 200 processes in a binary dependency tree (each waits for its parent's
// ready line), and the orderly shutdown of all of them, each beside the
// machine's floor for the same work (internal/floor) measured in the same
// iteration: the ratios are what to compare across machines and runs.
func Benchmark200Tree(b *testing.B) {
	cfg := tree200Config()
	var took, down, floorReady, floorDown []time.Duration
	for b.Loop() {
		bare, err := floor.Run(200, floor.Tree)
		if err != nil {
			b.Fatal(err)
		}
		floorReady, floorDown = append(floorReady, bare.AllReady), append(floorDown, bare.Down)
		began := time.Now()
		sub, stop := benchEngine(b, cfg)
		events := &eventLog{sub: sub}
		events.find(b, func(ev Event) bool { return ev.Type == EventInfo && ev.Reason == rules.ReasonAllReady })
		took = append(took, time.Since(began))
		stopping := time.Now()
		stop()
		down = append(down, time.Since(stopping))
	}
	benchmetric.ReportRatio(b, "all-ready", took, floorReady)
	benchmetric.ReportRatio(b, "down", down, floorDown)
}

// benchProcs is how many processes the shutdown benchmark runs.
const benchProcs = 200

// BenchmarkShutdown measures the orderly shutdown of benchProcs ready
// processes that depend on nothing (one wave): from Down to Run returned.
func BenchmarkShutdown(b *testing.B) {
	var cfg strings.Builder
	cfg.WriteString("procs:\n")
	for i := range benchProcs {
		fmt.Fprintf(&cfg, "  p%03d:\n    command: echo ready; exec sleep 300\n    readyPatterns: [ready]\n", i)
	}
	var down []time.Duration
	for b.Loop() {
		b.StopTimer()
		sub, stop := benchEngine(b, cfg.String())
		events := &eventLog{sub: sub}
		events.find(b, func(ev Event) bool { return ev.Type == EventInfo && ev.Reason == rules.ReasonAllReady })
		b.StartTimer()
		stopping := time.Now()
		stop()
		down = append(down, time.Since(stopping))
	}
	benchmetric.ReportPercentiles(b, "down-ms", down)
}

// BenchmarkIdle50 runs procs (the engine helper of orphan_test.go, with its
// watchdog, in a process of its own) with 50 ready idle processes and
// measures its CPU time over 10 s and its resident memory.
func BenchmarkIdle50(b *testing.B) {
	var cfg strings.Builder
	cfg.WriteString("procs:\n")
	for i := range 50 {
		fmt.Fprintf(&cfg, "  p%02d:\n    command: echo ready; exec sleep 300\n    readyPatterns: [ready]\n", i)
	}
	file := filepath.Join(b.TempDir(), "procs.yaml")
	if err := os.WriteFile(file, []byte(cfg.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command(os.Args[0], "-test.run=^$", "-test.bench=^$")
		cmd.Env = append(os.Environ(), engineHelperEnv+"="+file)
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		waitForLine(&testing.T{}, out, "READY")
		pid := cmd.Process.Pid
		cpuBefore := cpuTime(pid)
		time.Sleep(10 * time.Second) // the measurement window itself
		cpu := cpuTime(pid) - cpuBefore
		b.ReportMetric(float64(cpu.Microseconds())/1000, "cpu-ms/10s")
		b.ReportMetric(float64(rssKiB(pid))/1024, "rss-MiB")
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}
}

// cpuTime sums the on-CPU time of every thread of pid (schedstat, in ns:
// finer than the clock ticks of /proc/PID/stat).
func cpuTime(pid int) time.Duration {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var total time.Duration
	for _, task := range tasks {
		data, err := os.ReadFile(task)
		if err != nil {
			continue
		}
		if ns, err := strconv.ParseInt(strings.Fields(string(data))[0], 10, 64); err == nil {
			total += time.Duration(ns)
		}
	}
	return total
}

// rssKiB reads the resident set size of pid.
func rssKiB(pid int) int {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return kib
		}
	}
	return 0
}
