package compose

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

func TestMain(m *testing.M) {
	contain.RunWatchdogIfRequested()
	runEngineHelperIfRequested()
	os.Exit(m.Run())
}

// waitLimit bounds every wait in these tests: generous, never a timing assertion.
const waitLimit = 20 * time.Second

// testEngine parses yamlText in a temporary project and starts an engine on it.
type testEngine struct {
	*Engine
	sub    *Subscription
	events []Event
	done   chan Outcome
	cancel context.CancelFunc
	dir    string
	t      *testing.T
	limit  time.Duration
}

func startEngine(t *testing.T, yamlText string, opts Options) *testEngine {
	t.Helper()
	cfg := parseConfig(t, yamlText)
	if opts.LogDir == "" {
		opts.LogDir = filepath.Join(cfg.Dir, ".procs", "logs")
	}
	e, err := New(cfg, opts)
	require.NoError(t, err)
	te := &testEngine{Engine: e, sub: e.Bus().Subscribe(false), done: make(chan Outcome, 1), dir: cfg.Dir, t: t, limit: waitLimit}
	ctx, cancel := context.WithCancel(context.Background())
	te.cancel = cancel
	go func() {
		out, err := e.Run(ctx)
		assert.NoError(t, err)
		te.done <- out
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-te.done:
		case <-time.After(waitLimit):
			t.Error("engine did not stop")
		}
	})
	return te
}

func parseConfig(t *testing.T, yamlText string) *config.Config {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(yamlText), 0o644))
	cfg, err := config.Load(config.LoadOptions{File: file, Environ: os.Environ()})
	require.NoError(t, err)
	return cfg
}

// waitFor collects state events until one matches, failing after waitLimit.
func (te *testEngine) waitFor(desc string, match func(Event) bool) Event {
	te.t.Helper()
	deadline := time.After(te.limit)
	for {
		for i, ev := range te.events {
			if match(ev) {
				te.events = te.events[i+1:]
				return ev
			}
		}
		te.events = te.events[:0]
		select {
		case <-te.sub.Ready():
			evs, _ := te.sub.Next()
			te.events = append(te.events, evs...)
		case <-deadline:
			te.t.Fatalf("timed out waiting for %s\n%s", desc, te.describe())
		}
	}
}

// describe says where every process is, for a test that timed out: its
// state, why, and what its screen shows or its last lines said.
func (te *testEngine) describe() string {
	statuses, err := te.Status()
	if err != nil {
		return fmt.Sprintf("(no status: %v)", err)
	}
	var b strings.Builder
	for _, st := range statuses {
		fmt.Fprintf(&b, "%s: %s (%s) %s\n", st.Name, st.State, st.Reason, st.Message)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		screen, err := te.Screen(ctx, st.Name)
		cancel()
		if err == nil {
			fmt.Fprintf(&b, "  screen:\n%s\n", screen.Text)
			continue
		}
		if lines, err := te.Logs(st.Name, 10); err == nil {
			for _, l := range lines {
				fmt.Fprintf(&b, "  | %s\n", l.Text)
			}
		}
	}
	return b.String()
}

// history returns every state event seen so far, in order.
func stateLog(evs []Event) []string {
	var out []string
	for _, ev := range evs {
		if ev.Type == EventState {
			out = append(out, fmt.Sprintf("%s:%s", ev.Proc, ev.To))
		}
	}
	return out
}

func (te *testEngine) waitState(name string, state rules.State) Event {
	te.t.Helper()
	return te.waitFor(name+" "+string(state), func(ev Event) bool {
		return ev.Type == EventState && ev.Proc == name && ev.To == state
	})
}

// readPID reads the pid a test's process wrote to file.
func readPID(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	return pid
}

func (te *testEngine) waitOutcome() Outcome {
	te.t.Helper()
	select {
	case out := <-te.done:
		te.done <- out
		return out
	case <-time.After(waitLimit):
		te.t.Fatal("engine did not settle")
		return Outcome{}
	}
}

func TestDiamondStartsInDependencyOrder(t *testing.T) {
	te := startEngine(t, `
procs:
  a: {command: "sleep 0.2; echo up; sleep 60", readyPatterns: [up]}
  b: {command: "echo up; sleep 60", readyPatterns: [up], dependsOn: [a]}
  c: {command: "sleep 0.1; echo up; sleep 60", readyPatterns: [up], dependsOn: [a]}
  d: {command: "echo up; sleep 60", readyPatterns: [up], dependsOn: [b, c]}
`, Options{NoWatchdog: true})
	var seen []Event
	te.waitFor("d ready", func(ev Event) bool {
		seen = append(seen, ev)
		return ev.Proc == "d" && ev.To == rules.StateReady
	})
	log := stateLog(seen)
	pos := func(s string) int { return slices.Index(log, s) }
	require.NotEqual(t, -1, pos("a:ready"), log)
	assert.Less(t, pos("a:ready"), pos("b:starting"), log)
	assert.Less(t, pos("a:ready"), pos("c:starting"), log)
	assert.Less(t, pos("b:ready"), pos("d:starting"), log)
	assert.Less(t, pos("c:ready"), pos("d:starting"), log)
}

func TestTaskCompletionGatesDependents(t *testing.T) {
	te := startEngine(t, `
procs:
  migrate: {kind: task, command: "echo migrating; sleep 0.2; echo done"}
  api: {command: "echo listening; sleep 60", readyPatterns: [listening], dependsOn: {migrate: completed}}
`, Options{NoWatchdog: true})
	var seen []Event
	te.waitFor("api ready", func(ev Event) bool {
		seen = append(seen, ev)
		return ev.Proc == "api" && ev.To == rules.StateReady
	})
	log := stateLog(seen)
	assert.Less(t, slices.Index(log, "migrate:completed"), slices.Index(log, "api:starting"), log)
}

func TestFailedDependencyBlocksDependents(t *testing.T) {
	te := startEngine(t, `
procs:
  db: {command: "echo 'FATAL: no data dir'; exit 1", readyPatterns: [accepting], errorPatterns: ['^FATAL']}
  api: {command: "sleep 60", dependsOn: [db]}
  web: {command: "sleep 60", dependsOn: [api]}
`, Options{NoWatchdog: true})
	ev := te.waitState("api", rules.StateBlocked)
	assert.Contains(t, ev.Message, "db failed")
	te.waitState("web", rules.StateBlocked)
	out := te.waitOutcome()
	assert.Equal(t, []string{"db"}, out.Failed)
}

func TestRestartPolicyBacksOffAndGivesUp(t *testing.T) {
	te := startEngine(t, `
procs:
  flaky:
    command: "echo trying; exit 3"
    restart: {policy: on-failure, maxRestarts: 2, backoff: 10ms..40ms}
`, Options{NoWatchdog: true})
	te.waitState("flaky", rules.StateBackoff)
	te.waitState("flaky", rules.StateBackoff)
	out := te.waitOutcome()
	assert.Equal(t, []string{"flaky"}, out.Failed)
	st, err := te.StatusOf("flaky")
	if err == nil { // the engine may already have returned
		assert.Equal(t, 3, st.Run)
	}
}

func TestPortPreflightNamesTheHolder(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	te := startEngine(t, fmt.Sprintf(`
procs:
  api: {command: "sleep 60", port: %d}
`, port), Options{NoWatchdog: true})
	ev := te.waitState("api", rules.StateFailed)
	assert.Contains(t, ev.Message, fmt.Sprintf("port %d is in use by pid %d", port, os.Getpid()))
	assert.Contains(t, ev.Message, "then `procs start api`", "how to try again")
}

// TestRestartWaitsForTheNewRun: a wait for run 2 gets run 2's verdict.
// The engine stays up as procs up does: run 2 fails at once, and an engine
// that ends when nothing runs could end before the wait is asked (a loaded
// CI machine did), which the wait then reports instead.
func TestRestartWaitsForTheNewRun(t *testing.T) {
	te := startEngine(t, `
procs:
  api: {command: "if [ -e marker ]; then echo boom; exit 1; fi; touch marker; echo ready; sleep 60", readyPatterns: [ready], errorPatterns: [boom]}
`, Options{NoWatchdog: true, StayUp: true})
	te.waitState("api", rules.StateReady)
	run, err := te.Restart("api")
	require.NoError(t, err)
	assert.Equal(t, 2, run)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	res, err := te.Wait(ctx, "api", []rules.State{rules.StateReady}, run)
	require.NoError(t, err)
	assert.False(t, res.Success, "a stale ready line of run 1 must not count: %+v", res)
	assert.Equal(t, 2, res.Run)
	assert.Equal(t, rules.StateFailed, res.State)
	assert.Contains(t, strings.Join(res.Logs, "\n"), "boom")
}

func TestDependentWithRestartFollows(t *testing.T) {
	te := startEngine(t, `
procs:
  db: {command: "echo ready; sleep 60", readyPatterns: [ready]}
  api:
    command: "echo ready; sleep 60"
    readyPatterns: [ready]
    dependsOn: {db: {condition: ready, restart: true}}
`, Options{NoWatchdog: true})
	te.waitState("api", rules.StateReady)
	_, err := te.Restart("db")
	require.NoError(t, err)
	ev := te.waitFor("api run 2 ready", func(ev Event) bool {
		return ev.Proc == "api" && ev.To == rules.StateReady && ev.Run == 2
	})
	assert.Equal(t, 2, ev.Run)
}

func TestConcurrentRestartsCoalesce(t *testing.T) {
	// The run takes a second to stop, so every restart arrives while the
	// first one waits for it: on a loaded machine, five goroutines can take
	// longer to run than a run that stops at once takes to end.
	te := startEngine(t, `
procs:
  api: {command: "trap 'sleep 1; exit 0' TERM; echo ready; sleep 60", readyPatterns: [ready]}
`, Options{NoWatchdog: true})
	te.waitState("api", rules.StateReady)
	runs := make(chan int, 5)
	for range 5 {
		go func() {
			run, err := te.Restart("api")
			assert.NoError(t, err)
			runs <- run
		}()
	}
	for range 5 {
		assert.Equal(t, 2, <-runs)
	}
	ev := te.waitFor("api ready again", func(ev Event) bool { return ev.Proc == "api" && ev.To == rules.StateReady })
	assert.Equal(t, 2, ev.Run)
}

func TestDownStopsInReverseOrder(t *testing.T) {
	te := startEngine(t, `
procs:
  db: {command: "echo ready; sleep 60", readyPatterns: [ready]}
  api: {command: "trap 'echo bye; exit 0' TERM; echo ready; while true; do sleep 0.05; done", readyPatterns: [ready], dependsOn: [db]}
`, Options{NoWatchdog: true})
	te.waitState("api", rules.StateReady)
	require.NoError(t, te.Down())
	var seen []Event
	te.waitFor("db stopped", func(ev Event) bool {
		seen = append(seen, ev)
		return ev.Proc == "db" && ev.To == rules.StateStopped
	})
	log := stateLog(seen)
	assert.Less(t, slices.Index(log, "api:stopped"), slices.Index(log, "db:stopping"), log)
	assert.Empty(t, te.waitOutcome().Failed)
}
