package rules

import (
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// step is one scripted event at an offset from the start of the run.
type step struct {
	at time.Duration
	ev Event
}

func lineAt(at time.Duration, text string) step {
	return step{at, Event{Kind: EventLine, Line: Line{Raw: []byte(text), Text: StripText([]byte(text))}}}
}

func exitAt(at time.Duration, e Exit) step { return step{at, Event{Kind: EventExit, Exit: e}} }

func portsAt(at time.Duration, ports ...int) step {
	return step{at, Event{Kind: EventPorts, Ports: ports}}
}

// drive feeds steps to d as the engine would, delivering EventTimer at each
// deadline that falls before the next step (and before until). It returns
// every verdict that Handle reported as changed.
func drive(d *Detector, steps []step, until time.Duration) []Verdict {
	var changes []Verdict
	handle := func(ev Event) {
		if v, changed := d.Handle(ev); changed {
			changes = append(changes, v)
		}
	}
	timersUntil := func(limit time.Time) {
		for {
			deadline, ok := d.Deadline()
			if !ok || deadline.After(limit) {
				return
			}
			handle(Event{Kind: EventTimer, Time: deadline})
		}
	}
	for _, s := range steps {
		at := t0.Add(s.at)
		timersUntil(at)
		s.ev.Time = at
		handle(s.ev)
	}
	timersUntil(t0.Add(until))
	return changes
}

func states(vs []Verdict) []State {
	out := make([]State, len(vs))
	for i, v := range vs {
		out[i] = v.State
	}
	return out
}

func mustPatterns(t testing.TB, srcs ...string) []Pattern {
	t.Helper()
	p, err := CompilePatterns(srcs)
	require.NoError(t, err)
	return p
}

func mustRule(t testing.TB, src string) *Rule {
	t.Helper()
	r, err := CompileRule(src)
	require.NoError(t, err)
	return r
}

func TestDetectorScripts(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name    string
		spec    func(t *testing.T) *Spec
		steps   []step
		until   time.Duration
		want    Verdict // State, Reason, Line checked; Message when set
		history []State
	}{{
		name:    "ready line",
		spec:    func(t *testing.T) *Spec { return &Spec{ReadyPatterns: mustPatterns(t, "listening on")} },
		steps:   []step{lineAt(10*ms, "booting"), lineAt(20*ms, "\x1b[32mlistening on :8080\x1b[0m")},
		want:    Verdict{State: StateReady, Reason: "ready", Line: "listening on :8080", Message: `matched "listening on :8080"`},
		history: []State{StateReady},
	}, {
		name: "ready word inside an error line",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "ready"), ErrorPatterns: mustPatterns(t, "^Error")}
		},
		steps:   []step{lineAt(10*ms, "Error: server not ready: config missing")},
		until:   time.Second,
		want:    Verdict{State: StateFailed, Reason: "error", Line: "Error: server not ready: config missing"},
		history: []State{StateFailed},
	}, {
		name: "error during the stability delay",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "listening"), ErrorPatterns: mustPatterns(t, "address already in use"), StabilityDelay: 300 * ms}
		},
		steps:   []step{lineAt(100*ms, "listening on :30932"), lineAt(101*ms, "listen tcp :30932: bind: address already in use")},
		until:   time.Second,
		want:    Verdict{State: StateFailed, Reason: "error", Line: "listen tcp :30932: bind: address already in use"},
		history: []State{StateFailed},
	}, {
		name: "error after the stability delay",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "listening"), ErrorPatterns: mustPatterns(t, "panic:"), StabilityDelay: 300 * ms}
		},
		steps:   []step{lineAt(100*ms, "listening on :8080"), lineAt(900*ms, "panic: boom")},
		want:    Verdict{State: StateUnhealthy, Reason: "error", Line: "panic: boom", Message: `error line "panic: boom" (matched /panic:/)`},
		history: []State{StateReady, StateUnhealthy},
	}, {
		name: "error after ready, then the exit",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "listening"), ErrorPatterns: mustPatterns(t, "panic:")}
		},
		steps: []step{lineAt(100*ms, "listening on :8080"), lineAt(900*ms, "panic: boom"), exitAt(time.Second, Exit{Code: 2})},
		want: Verdict{State: StateFailed, Reason: "error", Line: "panic: boom",
			Message: `error line "panic: boom" (matched /panic:/); then exit code 2`, ExitCode: 2},
		history: []State{StateReady, StateUnhealthy, StateFailed},
	}, {
		name: "a compile error after ready, then fixed",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, `compiled successfully`), ErrorPatterns: mustPatterns(t, `Failed to compile`)}
		},
		steps: []step{lineAt(100*ms, "webpack compiled successfully"), lineAt(5*time.Second, "Failed to compile."),
			lineAt(6*time.Second, "./src/App.js: Unexpected token"), lineAt(9*time.Second, "webpack compiled successfully")},
		want:    Verdict{State: StateReady, Reason: "recovered", Line: "webpack compiled successfully"},
		history: []State{StateReady, StateUnhealthy, StateReady},
	}, {
		name: "not-ready prompt then ready",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "ready in"), NotReadyPatterns: mustPatterns(t, `Pick a theme`)}
		},
		steps:   []step{lineAt(10*ms, "? Pick a theme ›"), lineAt(500*ms, "VITE ready in 120 ms")},
		want:    Verdict{State: StateReady, Reason: "ready", Line: "VITE ready in 120 ms"},
		history: []State{StateStarting, StateReady},
	}, {
		name: "timeout says what was and was not seen",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "Local:"), Port: 3000, ReadyTimeout: 30 * time.Second}
		},
		steps:   []step{lineAt(10*ms, "compiling..."), portsAt(time.Second, 3000)},
		until:   time.Minute,
		want:    Verdict{State: StateFailed, Reason: "timeout", Message: "port 3000 open, no line matched /Local:/ after 30s"},
		history: []State{StateFailed},
	}, {
		// The design: a timeout "keeps the process running"; it may still
		// come up, and its ready line then makes it ready.
		name: "a ready line after the timeout",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "up"), ReadyTimeout: time.Second}
		},
		steps:   []step{lineAt(10*ms, "compiling..."), lineAt(3*time.Second, "still compiling"), lineAt(4*time.Second, "up on :8080")},
		until:   time.Minute,
		want:    Verdict{State: StateReady, Reason: "ready", Line: "up on :8080"},
		history: []State{StateFailed, StateReady},
	}, {
		name: "a ready line after the timeout, held for the stability delay",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "up"), ReadyTimeout: time.Second, StabilityDelay: 200 * ms}
		},
		steps:   []step{lineAt(4*time.Second, "up on :8080")},
		until:   time.Minute,
		want:    Verdict{State: StateReady, Reason: "ready", Line: "up on :8080"},
		history: []State{StateFailed, StateReady},
	}, {
		name:  "timeout with no output and the port elsewhere",
		spec:  func(t *testing.T) *Spec { return &Spec{Port: 5173, ReadyTimeout: 5 * time.Second} },
		steps: []step{portsAt(time.Second, 5174)},
		until: time.Minute,
		want:  Verdict{State: StateFailed, Reason: "timeout", Message: "port 5173 not open (listening on 5174), no output after 5s"},
	}, {
		name: "rule and patterns compose: line, then port",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "listening"), Rule: mustRule(t, "port.open"), Port: 8080}
		},
		steps:   []step{lineAt(10*ms, "listening on :8080"), portsAt(20*ms, 8080)},
		want:    Verdict{State: StateReady, Reason: "ready", Line: "listening on :8080", Message: `matched "listening on :8080"; port 8080 open; rule "port.open" true`},
		history: []State{StateReady},
	}, {
		name: "rule and patterns compose: port, then line",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "listening"), Rule: mustRule(t, "port.open"), Port: 8080}
		},
		steps:   []step{portsAt(10*ms, 8080), lineAt(20*ms, "listening on :8080")},
		want:    Verdict{State: StateReady, Reason: "ready", Line: "listening on :8080"},
		history: []State{StateReady},
	}, {
		name: "rule false keeps a matched line from being ready",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "listening"), Rule: mustRule(t, `log.matches("migrations? done") && log.contains("cache warm")`)}
		},
		steps: []step{lineAt(10*ms, "listening on :8080"), lineAt(20*ms, "migration done")},
		want:  Verdict{State: StateStarting, Reason: "starting"},
	}, {
		name: "rule over log, line and elapsed",
		spec: func(t *testing.T) *Spec {
			return &Spec{Rule: mustRule(t, `log.matches("migrations? done") && log.contains("cache warm") && log.lines >= 2 && elapsed > duration("15ms")`)}
		},
		steps:   []step{lineAt(10*ms, "migration done"), lineAt(20*ms, "cache warm")},
		want:    Verdict{State: StateReady, Reason: "ready"},
		history: []State{StateReady},
	}, {
		name:    "port-only readiness",
		spec:    func(t *testing.T) *Spec { return &Spec{Port: 8080} },
		steps:   []step{portsAt(10*ms, 9229), portsAt(50*ms, 8080, 9229)},
		want:    Verdict{State: StateReady, Reason: "ready", Message: "port 8080 open"},
		history: []State{StateReady},
	}, {
		name:    "nothing configured: ready after the stability delay",
		spec:    func(t *testing.T) *Spec { return &Spec{StabilityDelay: 200 * ms} },
		until:   time.Second,
		want:    Verdict{State: StateReady, Reason: "ready", Message: "running for 200ms without error"},
		history: []State{StateReady},
	}, {
		name:    "task with nothing configured completes on exit 0",
		spec:    func(t *testing.T) *Spec { return &Spec{Task: true} },
		steps:   []step{lineAt(10*ms, "migrating"), exitAt(time.Second, Exit{Code: 0})},
		want:    Verdict{State: StateCompleted, Reason: "completed"},
		history: []State{StateCompleted},
	}, {
		name: "deps and probes feed the rule",
		spec: func(t *testing.T) *Spec {
			return &Spec{Rule: mustRule(t, `deps.db == "ready" && http.status == 200 && !exec.ok`)}
		},
		steps: []step{{10 * ms, Event{Kind: EventDeps, Deps: map[string]State{"db": StateReady}}}, {20 * ms, Event{Kind: EventProbe, Probe: ProbeResult{Kind: ProbeHTTP, OK: true, Status: 200}}}},
		want:  Verdict{State: StateReady, Reason: "ready"},
	}, {
		name: "error verdict keeps its line at the exit",
		spec: func(t *testing.T) *Spec { return &Spec{ErrorPatterns: mustPatterns(t, "FATAL:")} },
		steps: []step{lineAt(10*ms, "LOG: could not bind"), lineAt(11*ms, "FATAL:  could not create any TCP/IP sockets"),
			exitAt(20*ms, Exit{Code: 1})},
		want: Verdict{State: StateFailed, Reason: "error", Line: "FATAL:  could not create any TCP/IP sockets",
			Message: `error line "FATAL:  could not create any TCP/IP sockets" (matched /FATAL:/); then exit code 1`, ExitCode: 1},
	}, {
		name: "a crash quotes the last error line",
		spec: func(t *testing.T) *Spec { return &Spec{Task: true} },
		steps: []step{
			{10 * ms, Event{Kind: EventLine, Line: Line{Text: "ERROR: relation \"users\" does not exist", Stream: StreamStderr}}},
			lineAt(20*ms, "rolling back"), exitAt(30*ms, Exit{Code: 3}),
		},
		want: Verdict{State: StateFailed, Reason: "crash", ExitCode: 3, Line: "ERROR: relation \"users\" does not exist",
			Message: `exit code 3; last error line "ERROR: relation \"users\" does not exist"`},
	}, {
		// initdb run as root (recorded): the error, not the hint after it.
		name: "a crash quotes the error line, not the hint",
		spec: func(t *testing.T) *Spec { return &Spec{Task: true} },
		steps: []step{
			{10 * ms, Event{Kind: EventLine, Line: Line{Text: "initdb: error: cannot be run as root", Stream: StreamStderr}}},
			{10 * ms, Event{Kind: EventLine, Line: Line{Text: `initdb: hint: Please log in (using, e.g., "su") as the (unprivileged) user that will own the server process.`, Stream: StreamStderr}}},
			exitAt(30*ms, Exit{Code: 1}),
		},
		want: Verdict{State: StateFailed, Reason: "crash", ExitCode: 1, Line: "initdb: error: cannot be run as root",
			Message: `exit code 1; error line "initdb: error: cannot be run as root"`},
	}, {
		name:  "command not found",
		spec:  func(t *testing.T) *Spec { return &Spec{} },
		steps: []step{lineAt(10*ms, "sh: 1: srv: not found"), exitAt(20*ms, Exit{Code: 127})},
		want: Verdict{State: StateFailed, Reason: "crash", ExitCode: 127, Line: "sh: 1: srv: not found",
			Message: `exit code 127 (command not found); error line "sh: 1: srv: not found"`},
	}, {
		// ng serve 20 on a taken port (captures angular/port-in-use): the
		// program ran, said why, and exited 127, which a shell would mean
		// as "not found".
		name: "an exit code after the program's own error line is not a shell's guess",
		spec: func(t *testing.T) *Spec { return &Spec{ErrorPatterns: mustPatterns(t, `Port \d+ is already in use`)} },
		steps: []step{lineAt(10*ms, "Port 28832 is already in use."),
			lineAt(20*ms, "An unhandled exception occurred: Port 28832 is already in use. Use '--port' to specify a different port."),
			exitAt(30*ms, Exit{Code: 127})},
		want: Verdict{State: StateFailed, Reason: "error", ExitCode: 127, Line: "Port 28832 is already in use.",
			Message: `error line "Port 28832 is already in use." (matched /Port \d+ is already in use/); then exit code 127`},
	}, {
		name: "a generic runtime's worker is assumed ready",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "listening on"), ErrorPatterns: mustPatterns(t, "^panic: "),
				ReadyOnListen: true, AssumeReadyAfter: 10 * time.Second}
		},
		steps:   []step{lineAt(10*ms, "worker: polling the queue")},
		until:   11 * time.Second,
		want:    Verdict{State: StateReady, Reason: "assumed"},
		history: []State{StateReady},
	}, {
		name: "a generic runtime's server is ready when it listens",
		spec: func(t *testing.T) *Spec {
			return &Spec{ReadyPatterns: mustPatterns(t, "listening on"), ReadyOnListen: true, AssumeReadyAfter: 10 * time.Second}
		},
		steps: []step{portsAt(500*ms, 8080)},
		until: 11 * time.Second,
		want:  Verdict{State: StateReady, Reason: "ready", Message: "listening on port 8080"},
	}, {
		name: "an error before it is assumed ready fails it",
		spec: func(t *testing.T) *Spec {
			return &Spec{ErrorPatterns: mustPatterns(t, "^panic: "), ReadyOnListen: true, AssumeReadyAfter: 10 * time.Second}
		},
		steps:   []step{lineAt(2*time.Second, "panic: no DATABASE_URL")},
		until:   11 * time.Second,
		want:    Verdict{State: StateFailed, Reason: "error", Line: "panic: no DATABASE_URL"},
		history: []State{StateFailed},
	}, {
		name:  "events after the exit are ignored",
		spec:  func(t *testing.T) *Spec { return &Spec{ReadyPatterns: mustPatterns(t, "ready")} },
		steps: []step{exitAt(10*ms, Exit{Code: 2}), lineAt(20*ms, "ready")},
		want:  Verdict{State: StateFailed, Reason: "crash", Message: "exit code 2", ExitCode: 2},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDetector(tt.spec(t), 1, t0)
			history := drive(d, tt.steps, tt.until)
			got := d.Verdict()
			assert.Equal(t, tt.want.State, got.State, "verdict %+v", got)
			assert.Equal(t, tt.want.Reason, got.Reason, "verdict %+v", got)
			assert.Equal(t, tt.want.Line, got.Line)
			assert.Equal(t, tt.want.ExitCode, got.ExitCode)
			if tt.want.Message != "" {
				assert.Equal(t, tt.want.Message, got.Message)
			}
			if tt.history != nil {
				assert.Equal(t, tt.history, states(history))
			}
		})
	}
}

func TestDetectorExitClassification(t *testing.T) {
	tests := []struct {
		name       string
		task       bool
		exit       Exit
		wantState  State
		wantReason Reason
		wantMsg    string
	}{
		{"service exit 0", false, Exit{Code: 0}, StateFailed, "exited", "exited with code 0; a service is expected to keep running"},
		{"task exit 0", true, Exit{Code: 0}, StateCompleted, "completed", "exit code 0"},
		{"exit 1", false, Exit{Code: 1}, StateFailed, "crash", "exit code 1"},
		{"task exit 2", true, Exit{Code: 2}, StateFailed, "crash", "exit code 2"},
		{"130 not requested", false, Exit{Code: 130}, StateFailed, "crash", "exit code 130 (SIGINT)"},
		{"130 requested", false, Exit{Code: 130, Requested: true}, StateStopped, "stopped", "stopped on request (exit code 130 (SIGINT))"},
		{"143 requested", false, Exit{Code: 143, Requested: true}, StateStopped, "stopped", ""},
		{"0 requested", false, Exit{Code: 0, Requested: true}, StateStopped, "stopped", ""},
		{"SIGTERM requested", false, Exit{Code: 143, Signal: syscall.SIGTERM, Requested: true}, StateStopped, "stopped", "stopped on request (killed by SIGTERM)"},
		{"SIGKILL after shutdown timeout", false, Exit{Code: 137, Signal: syscall.SIGKILL, Requested: true}, StateStopped, "stopped", ""},
		{"SIGKILL", false, Exit{Code: 137, Signal: syscall.SIGKILL}, StateFailed, "killed", "killed by SIGKILL"},
		{"137 from a shell", false, Exit{Code: 137}, StateFailed, "killed", "exit code 137 (SIGKILL)"},
		{"SIGKILL at the memory limit", false, Exit{Code: 137, Signal: syscall.SIGKILL, MemoryLimit: &MemoryLimit{Limit: 64 << 20, Peak: 64 << 20}},
			StateFailed, ReasonMemoryLimit, "killed by the kernel: memory limit 64 MiB reached (peak 64 MiB)"},
		{"137 from a shell at the memory limit", false, Exit{Code: 137, MemoryLimit: &MemoryLimit{Limit: 512 << 20, Peak: 500 << 20}},
			StateFailed, ReasonMemoryLimit, "killed by the kernel: memory limit 512 MiB reached (peak 500 MiB)"},
		{"memory limit requested stop", false, Exit{Code: 137, Signal: syscall.SIGKILL, Requested: true, MemoryLimit: &MemoryLimit{Limit: 64 << 20}},
			StateStopped, "stopped", ""},
		{"memory limit, no peak", false, Exit{Code: 137, Signal: syscall.SIGKILL, MemoryLimit: &MemoryLimit{Limit: 1536 << 20}},
			StateFailed, ReasonMemoryLimit, "killed by the kernel: memory limit 1536 MiB reached"},
		{"SIGSEGV", false, Exit{Code: 139, Signal: syscall.SIGSEGV}, StateFailed, "crash", "killed by SIGSEGV"},
		{"start failure", false, Exit{Code: -1, Err: syscall.ENOENT}, StateFailed, "crash", "start failed: no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDetector(&Spec{Task: tt.task, ReadyPatterns: mustPatterns(t, "never")}, 1, t0)
			v, changed := d.Handle(Event{Kind: EventExit, Time: t0.Add(time.Second), Exit: tt.exit})
			assert.True(t, changed)
			assert.Equal(t, tt.wantState, v.State)
			assert.Equal(t, tt.wantReason, v.Reason)
			if tt.wantMsg != "" {
				assert.Equal(t, tt.wantMsg, v.Message)
			}
			_, ok := d.Deadline()
			assert.False(t, ok, "no timer after the exit")
		})
	}
}

// A restart makes a new detector; with the same Spec (and its shared Rule)
// nothing the first run printed may count for the second.
func TestDetectorSecondRunIgnoresFirst(t *testing.T) {
	spec := &Spec{
		ReadyPatterns: mustPatterns(t, "listening"),
		Rule:          mustRule(t, `log.matches("db connected")`),
		ReadyTimeout:  10 * time.Second,
	}
	first := NewDetector(spec, 1, t0)
	drive(first, []step{lineAt(10*time.Millisecond, "db connected"), lineAt(20*time.Millisecond, "listening on :8080")}, 0)
	require.Equal(t, StateReady, first.Verdict().State)

	start2 := t0.Add(time.Minute)
	second := NewDetector(spec, 2, start2)
	v, _ := second.Handle(Event{Kind: EventLine, Time: start2.Add(time.Millisecond), Line: Line{Text: "listening on :8080"}})
	assert.Equal(t, StateStarting, v.State, "db connected was printed by run 1 only")
	v, _ = second.Handle(Event{Kind: EventTimer, Time: start2.Add(10 * time.Second)})
	assert.Equal(t, StateFailed, v.State)
	assert.Equal(t, `matched "listening on :8080", rule "log.matches(\"db connected\")" not true after 10s`, v.Message)
}

// The detector stays pure: portOpen(n) asks Spec.PortInUse.
func TestDetectorPortOpenFunction(t *testing.T) {
	asked := 0
	spec := &Spec{Rule: mustRule(t, "portOpen(5432)"), PortInUse: func(port int) bool { asked = port; return true }}
	d := NewDetector(spec, 1, t0)
	drive(d, nil, time.Second)
	assert.Equal(t, 5432, asked)
	assert.Equal(t, StateReady, d.Verdict().State)
}

func TestDetectorDeadline(t *testing.T) {
	d := NewDetector(&Spec{ReadyPatterns: mustPatterns(t, "up"), ReadyTimeout: 30 * time.Second, StabilityDelay: time.Second}, 1, t0)
	deadline, ok := d.Deadline()
	require.True(t, ok)
	assert.Equal(t, t0.Add(30*time.Second), deadline, "the ready timeout")
	d.Handle(Event{Kind: EventLine, Time: t0.Add(2 * time.Second), Line: Line{Text: "up"}})
	deadline, ok = d.Deadline()
	require.True(t, ok)
	assert.Equal(t, t0.Add(3*time.Second), deadline, "the end of the stability delay")
	v, changed := d.Handle(Event{Kind: EventTimer, Time: deadline})
	assert.True(t, changed)
	assert.Equal(t, StateReady, v.State)
	_, ok = d.Deadline()
	assert.False(t, ok)
	assert.Nil(t, d.Ports())
}

func TestDetectorNotReadyAfterReady(t *testing.T) {
	d := NewDetector(&Spec{ReadyPatterns: mustPatterns(t, `^> $`), NotReadyPatterns: mustPatterns(t, `\(y/n\)`)}, 1, t0)
	history := drive(d, []step{lineAt(1, "> "), lineAt(2, "Trust this folder? (y/n)"), lineAt(3, "> ")}, 0)
	assert.Equal(t, []State{StateReady, StateStarting, StateReady}, states(history))
	assert.Equal(t, ReasonNotReady, history[1].Reason)
	assert.Equal(t, "Trust this folder? (y/n)", history[1].Line)
}

// With nothing to wait for, the detector asks for a timer at the end of the
// settle window, so the engine hears of readiness through Handle like any
// change; a process that dies inside the window is failed, never ready.
func TestDetectorNothingToWaitFor(t *testing.T) {
	d := NewDetector(&Spec{}, 1, t0)
	assert.Equal(t, StateStarting, d.Verdict().State)
	deadline, ok := d.Deadline()
	require.True(t, ok)
	assert.Equal(t, t0.Add(DefaultSettle), deadline)
	v, changed := d.Handle(Event{Kind: EventTimer, Time: deadline})
	assert.True(t, changed)
	assert.Equal(t, StateReady, v.State)
	assert.Equal(t, "running for 1s without error", v.Message)

	d = NewDetector(&Spec{StabilityDelay: 50 * time.Millisecond}, 1, t0)
	deadline, _ = d.Deadline()
	assert.Equal(t, t0.Add(50*time.Millisecond), deadline, "stabilityDelay overrides the settle window")
}

// A worker importing a missing module, and `sh -c 'echo boom >&2; exit 2'`,
// both dead before the settle window ends, are failed, never ready.
func TestDetectorDiesInsideSettleWindow(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		want  Verdict
	}{
		{"python import error", []step{
			lineAt(20*time.Millisecond, "Traceback (most recent call last):"),
			lineAt(20*time.Millisecond, `  File "/srv/worker.py", line 1, in <module>`),
			lineAt(20*time.Millisecond, "    import notamodule"),
			lineAt(20*time.Millisecond, "ModuleNotFoundError: No module named 'notamodule'"),
			exitAt(30*time.Millisecond, Exit{Code: 1}),
		}, Verdict{State: StateFailed, Reason: "crash", ExitCode: 1,
			Line:    "ModuleNotFoundError: No module named 'notamodule'",
			Message: `exit code 1; error line "ModuleNotFoundError: No module named 'notamodule'" at /srv/worker.py, line 1`}},
		{"sh exit 2", []step{
			{5 * time.Millisecond, Event{Kind: EventLine, Line: Line{Text: "boom", Stream: StreamStderr}}},
			exitAt(6*time.Millisecond, Exit{Code: 2}),
		}, Verdict{State: StateFailed, Reason: "crash", ExitCode: 2, Message: `exit code 2; last error line "boom"`}},
		{"exit 0", []step{exitAt(900*time.Millisecond, Exit{Code: 0})},
			Verdict{State: StateFailed, Reason: "exited", Message: "exited with code 0; a service is expected to keep running"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := NewDetector(&Spec{}, 1, t0)
			history := drive(d, tt.steps, 0)
			assert.NotContains(t, states(history), StateReady)
			assert.Equal(t, tt.want, d.Verdict())
		})
	}
}

// AwaitsPort says when a ready line has come and only its port is missing:
// the configured port, or (ReadyLinePort) the one the line's URL names.
func TestDetectorAwaitsPort(t *testing.T) {
	line := func(text string) Event {
		return Event{Kind: EventLine, Time: t0.Add(time.Millisecond), Line: Line{Text: text}}
	}
	ports := func(p ...int) Event { return Event{Kind: EventPorts, Time: t0.Add(2 * time.Millisecond), Ports: p} }

	d := NewDetector(&Spec{ReadyPatterns: mustPatterns(t, "listening"), Port: 3000}, 1, t0)
	assert.False(t, d.AwaitsPort(), "no ready line yet")
	d.Handle(line("listening on port 3000"))
	assert.True(t, d.AwaitsPort(), "the ready line waits for port 3000")
	v, _ := d.Handle(ports(3000))
	assert.Equal(t, StateReady, v.State)
	assert.False(t, d.AwaitsPort(), "ready")

	d = NewDetector(&Spec{ReadyPatterns: mustPatterns(t, "Running on"), ReadyLinePort: true}, 1, t0)
	d.Handle(line(" * Running on http://127.0.0.1:5000"))
	assert.True(t, d.AwaitsPort(), "the URL's port 5000")

	d = NewDetector(&Spec{ReadyPatterns: mustPatterns(t, "ready")}, 1, t0)
	d.Handle(line("ready"))
	assert.False(t, d.AwaitsPort(), "a line with no port to wait for")
}
