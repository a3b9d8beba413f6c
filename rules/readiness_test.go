package rules

import (
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// uvicorn --reload says "Uvicorn running on" about 250 ms
// before its worker listens. With a port configured, or a preset's ready
// line naming one, the run is ready only once its tree listens on it.
func TestReadyLineWaitsForItsPort(t *testing.T) {
	const line = "INFO:     Uvicorn running on http://127.0.0.1:8123 (Press CTRL+C to quit)"
	tests := []struct {
		name  string
		spec  Spec
		steps []step
		want  []State
		at    string // the ready verdict's message
	}{
		{"configured port", Spec{Port: 8123}, []step{lineAt(10*time.Millisecond, line), portsAt(260*time.Millisecond, 8123)},
			[]State{StateReady}, `matched "` + line + `"; port 8123 open`},
		{"preset line's URL", Spec{ReadyLinePort: true}, []step{lineAt(10*time.Millisecond, line), portsAt(100*time.Millisecond, 9999), portsAt(260*time.Millisecond, 8123, 9999)},
			[]State{StateReady}, "port 8123 open"},
		{"a line without a URL needs no port", Spec{ReadyLinePort: true}, []step{lineAt(10*time.Millisecond, "* Ready to accept connections tcp")},
			[]State{StateReady}, `matched "* Ready to accept connections tcp"`},
		// NestJS says it started before it binds (captures nestjs/port-in-use).
		{"a line without a port, said before the bind", Spec{ReadyLinePort: true, ReadyLineListens: true},
			[]step{lineAt(10*time.Millisecond, "* Ready to accept connections tcp"), portsAt(260*time.Millisecond, 3000)},
			[]State{StateReady}, `matched "* Ready to accept connections tcp"; listening on port 3000`},
		{"never listens", Spec{ReadyLinePort: true, ReadyTimeout: time.Second, PortInUse: func(int) bool { return false }}, []step{lineAt(10*time.Millisecond, line)},
			[]State{StateFailed}, "but its process tree does not listen on port 8123 after 1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := tt.spec
			spec.ReadyPatterns = mustPatterns(t, "Uvicorn running on", "Ready to accept")
			d := NewDetector(&spec, 1, t0)
			history := drive(d, tt.steps[:1], 50*time.Millisecond)
			if len(tt.steps) > 1 {
				assert.Empty(t, history, "not ready on the line alone")
			}
			history = append(history, drive(d, tt.steps[1:], 2*time.Second)...)
			require.Equal(t, tt.want, states(history))
			assert.Contains(t, history[0].Message, tt.at)
			if tt.want[0] == StateReady && len(tt.steps) > 1 {
				assert.Equal(t, tt.steps[0].ev.Line.Text, history[0].Line)
			}
		})
	}
}

// A server whose bind failed still says it listens: the timeout names the
// program that holds the port, as a port configured and in use does, so the
// user knows what to stop.
func TestReadyLinePortHeldElsewhereNamesTheHolder(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	line := fmt.Sprintf("Example app listening on port %d", port)
	spec := Spec{ReadyLinePort: true, ReadyTimeout: time.Second, ReadyPatterns: mustPatterns(t, "listening on port")}
	d := NewDetector(&spec, 1, t0)
	history := drive(d, []step{lineAt(10*time.Millisecond, line)}, 2*time.Second)
	require.Equal(t, []State{StateFailed}, states(history))
	assert.Contains(t, history[0].Message, fmt.Sprintf(
		"but its process tree does not listen on port %d (pid %d does: ", port, os.Getpid()))
}

// The port a ready line names: a URL's, the word port's, an address after
// on or at; the first form that matches names it. Lines from real servers.
func TestLinePortOf(t *testing.T) {
	for line, want := range map[string]int{
		"Example app listening on port 3010":                                                 3010,
		"Server running at http://localhost:3000/":                                           3000,
		"INFO:     Uvicorn running on http://127.0.0.1:8123 (Press CTRL+C to quit)":          8123,
		"Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...":                       8000,
		"listening on :30932":                                                                30932,
		"[GIN-debug] Listening and serving HTTP on :8080":                                    8080,
		"⇨ http server started on [::]:1323":                                                 1323,
		"Listening on: http://[::]:3000/":                                                    3000,
		"Running MyAppWeb.Endpoint with Bandit 1.5.0 at 127.0.0.1:4000 (http)":               4000,
		"Server listening on port: 4000":                                                     4000,
		"WEBrick::HTTPServer#start: pid=12 port=4567":                                        4567,
		`{"msg":"Waiting for connections","attr":{"port":27017,"ssl":"off"}}`:                27017,
		"mariadbd: ready for connections. socket: '/tmp/my.sock'  port: 0":                   0,
		"Server started at 12:30:45":                                                         0,
		"astro  v5.18.2 ready in 337 ms":                                                     0,
		"[2026-11-23 14:43:07,704: INFO/MainProcess] Connected to redis://127.0.0.1:27713/0": 0,
		"Listening on port 99999":                                                            0,
	} {
		assert.Equal(t, want, linePortOf(line), "%q", line)
	}
}

// An Express 5 app with no timer exits 0 after its callback printed the
// line (captures express/port-in-use): the end says whose the port is, the
// only reason there is (no line says an address is in use).
func TestAnExitAfterAReadyLineNamingAPortNotItsOwn(t *testing.T) {
	const line = "Example app listening on port 3141"
	d := NewDetector(&Spec{ReadyPatterns: mustPatterns(t, `(?i)\blistening\b.*\bport\s*\d+`), ReadyLinePort: true,
		PortInUse: func(port int) bool { return port == 3141 }}, 1, t0)
	history := drive(d, []step{lineAt(250*time.Millisecond, line), exitAt(300*time.Millisecond, Exit{Code: 0})}, 0)
	require.Equal(t, []State{StateFailed}, states(history), "%+v", history)
	assert.Equal(t, `exited with code 0; a service is expected to keep running; last line "`+line+
		`"; its tree did not listen on port 3141, which its ready line names (another program does)`, history[0].Message)

	d = NewDetector(&Spec{ReadyPatterns: mustPatterns(t, `(?i)\blistening\b.*\bport\s*\d+`), ReadyLinePort: true,
		PortInUse: func(int) bool { return false }}, 1, t0)
	history = drive(d, []step{lineAt(250*time.Millisecond, line), exitAt(300*time.Millisecond, Exit{Code: 0})}, 0)
	assert.NotContains(t, history[0].Message, "did not listen", "the port is free: nothing to say of it")
}

// Express 5 calls listen's callback when the bind failed: the app prints
// "listening on port 3010" while another program holds it, and with a
// timer of its own runs on. Its line names a port its tree does not listen
// on: never ready, nor assumed ready (it is no worker), but failed when it
// would have been assumed, saying why; a tree that then listens there is
// ready. The same line with the port open is ready at once.
func TestReadyLineNamingAPortNotItsOwn(t *testing.T) {
	const line = "Example app listening on port 3010"
	spec := func() *Spec {
		return &Spec{ReadyPatterns: mustPatterns(t, `(?i)\blistening\b.*\bport\s*\d+`), ReadyLinePort: true,
			ReadyOnListen: true, AssumeReadyAfter: 3 * time.Second, PortInUse: func(port int) bool { return port == 3010 }}
	}
	d := NewDetector(spec(), 1, t0)
	history := drive(d, []step{lineAt(250*time.Millisecond, line)}, 10*time.Second)
	require.Equal(t, []State{StateFailed}, states(history), "%+v", history)
	assert.Equal(t, ReasonTimeout, history[0].Reason)
	assert.Equal(t, `matched "`+line+`", but its process tree does not listen on port 3010 (another program does) after 3s`,
		history[0].Message)
	history = drive(d, []step{portsAt(12*time.Second, 3010)}, 13*time.Second)
	assert.Equal(t, []State{StateReady}, states(history), "listening at last")

	d = NewDetector(spec(), 1, t0)
	history = drive(d, []step{lineAt(250*time.Millisecond, line), portsAt(251*time.Millisecond, 3010)}, 0)
	require.Equal(t, []State{StateReady}, states(history))
	assert.Equal(t, `matched "`+line+`"; port 3010 open`, history[0].Message)
	assert.Equal(t, line, history[0].Line)
}

// A version manager's shim (pyenv: bash .pyenv/shims/python3, then
// .pyenv/libexec/pyenv-exec, then python) can take seconds to run the
// program: the settle window starts when the program runs, so a worker that
// dies at import is never ready first.
func TestSettleWaitsForTheShim(t *testing.T) {
	execAt := func(at time.Duration, programs string) step {
		return step{at, Event{Kind: EventExec, Program: programs}}
	}
	d := NewDetector(&Spec{}, 1, t0)
	history := drive(d, []step{
		execAt(10*time.Millisecond, "sh -c python3 worker.py\nbash /root/.pyenv/shims/python3 worker.py\n"),
		execAt(300*time.Millisecond, "sh -c python3 worker.py\nbash /root/.pyenv/libexec/pyenv-exec python3 worker.py\n"),
		execAt(3500*time.Millisecond, "sh -c python3 worker.py\npython3 worker.py\n"),
		lineAt(3550*time.Millisecond, "ModuleNotFoundError: No module named 'notamodule'"),
		exitAt(3560*time.Millisecond, Exit{Code: 1}),
	}, 0)
	assert.NotContains(t, states(history), StateReady)
	assert.Equal(t, StateFailed, d.Verdict().State)

	d = NewDetector(&Spec{}, 1, t0)
	history = drive(d, []step{
		execAt(10*time.Millisecond, "bash /root/.pyenv/shims/python3 good.py\n"),
		execAt(3500*time.Millisecond, "python3 good.py\n"),
		execAt(3600*time.Millisecond, "python3 good.py\nsleep 1\n"), // its own children do not delay it
	}, 10*time.Second)
	require.Equal(t, []State{StateReady}, states(history))
	deadline, _ := NewDetector(&Spec{}, 1, t0).Deadline()
	assert.Equal(t, t0.Add(DefaultSettle), deadline)

	// A wrapper that never execs the program settles after launcherMax.
	d = NewDetector(&Spec{}, 1, t0)
	history = drive(d, []step{execAt(10*time.Millisecond, "bash /home/u/.asdf/shims/ruby worker.rb\n")}, time.Minute)
	require.Equal(t, []State{StateReady}, states(history))
}

// On a loaded machine a python worker can take longer than the settle
// window to fail its import: a run whose program is still busy (running,
// not sleeping) is not ready until it sleeps, or busyMax has passed.
func TestSettleWaitsWhileBusy(t *testing.T) {
	busyAt := func(at time.Duration, busy bool) step {
		return step{at, Event{Kind: EventExec, Program: "python3 worker.py\n", Busy: busy}}
	}
	d := NewDetector(&Spec{}, 1, t0)
	history := drive(d, []step{
		busyAt(10*time.Millisecond, true),
		lineAt(1500*time.Millisecond, "ModuleNotFoundError: No module named 'notamodule'"),
		exitAt(1510*time.Millisecond, Exit{Code: 1}),
	}, 0)
	assert.NotContains(t, states(history), StateReady)

	d = NewDetector(&Spec{}, 1, t0)
	drive(d, []step{busyAt(10*time.Millisecond, true)}, 1500*time.Millisecond)
	assert.Equal(t, StateStarting, d.Verdict().State, "busy past the window")
	drive(d, []step{busyAt(1600*time.Millisecond, false)}, 0)
	assert.Equal(t, StateReady, d.Verdict().State, "ready once it sleeps")

	d = NewDetector(&Spec{}, 1, t0)
	history = drive(d, []step{busyAt(10*time.Millisecond, true)}, time.Minute)
	assert.Equal(t, []State{StateReady}, states(history), "always busy: ready after busyMax")
}

// TestExpectsPort: the runs watched for a port after they are ready are
// those expected to listen; the others are not, so that procs is silent
// once everything is ready (issue 34 item 4).
func TestExpectsPort(t *testing.T) {
	rule, err := CompileRule(`log.matches("up")`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		spec Spec
		want bool
	}{
		{"a ready line only", Spec{ReadyPatterns: mustPatterns(t, "ready")}, false},
		{"a task", Spec{Task: true}, false},
		{"a port", Spec{Port: 8080}, true},
		{"a rule", Spec{Rule: rule}, true},
		{"ready on listen", Spec{ReadyOnListen: true}, true},
		{"a ready line naming a port", Spec{ReadyLinePort: true}, true},
		{"a probe of its server", Spec{ReadyProbe: &ProbeSpec{}, ProbePort: 6379}, true},
	} {
		if got := tc.spec.ExpectsPort(); got != tc.want {
			t.Errorf("%s: ExpectsPort() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A failure that says its address is in use names who holds the port,
// as a configured port in use does before a start: the lines are real
// ones (redis-server 7, node 20), the holder a listener of this test.
func TestAddressInUseNamesTheHolder(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	holder := fmt.Sprintf("; port %d is in use by pid %d (", port, os.Getpid())

	redis := NewDetector(&Spec{ErrorPatterns: mustPatterns(t, `# (Failed listening on port|Could not create server TCP listening socket)`), ReadyTimeout: 30 * time.Second}, 1, t0)
	history := drive(redis, []step{
		lineAt(10*time.Millisecond, fmt.Sprintf("1:M 28 Nov 2026 11:31:57.391 # Warning: Could not create server TCP listening socket *:%d: bind: Address already in use", port)),
		lineAt(10*time.Millisecond, fmt.Sprintf("1:M 28 Nov 2026 11:31:57.391 # Failed listening on port %d (TCP), aborting.", port)),
		exitAt(20*time.Millisecond, Exit{Code: 1}),
	}, time.Second)
	require.NotEmpty(t, history)
	assert.Contains(t, history[0].Message, holder)

	node := NewDetector(&Spec{ReadyTimeout: 30 * time.Second}, 1, t0)
	history = drive(node, []step{
		lineAt(10*time.Millisecond, "node:events:497"),
		lineAt(10*time.Millisecond, fmt.Sprintf("Error: listen EADDRINUSE: address already in use :::%d", port)),
		lineAt(10*time.Millisecond, "    at Server.setupListenHandle [as _listen2] (node:net:1872:16)"),
		exitAt(20*time.Millisecond, Exit{Code: 1}),
	}, time.Second)
	require.NotEmpty(t, history)
	assert.Contains(t, history[len(history)-1].Message, holder)

	// A port nobody holds by the time of the message is not guessed at.
	free := NewDetector(&Spec{ReadyTimeout: 30 * time.Second}, 1, t0)
	history = drive(free, []step{
		lineAt(10*time.Millisecond, "OSError: [Errno 98] Address already in use"),
		exitAt(20*time.Millisecond, Exit{Code: 1}),
	}, time.Second)
	require.NotEmpty(t, history)
	assert.NotContains(t, history[len(history)-1].Message, "is in use by")

	// Python's socketserver names no address: the port the command names
	// (python3 -m http.server PORT, read by its preset) is the one.
	python := NewDetector(&Spec{ErrorPatterns: mustPatterns(t, `^OSError: \[Errno \d+\]`), ExpectedPort: port, ReadyTimeout: 30 * time.Second}, 1, t0)
	history = drive(python, []step{
		lineAt(10*time.Millisecond, "Traceback (most recent call last):"),
		lineAt(10*time.Millisecond, "OSError: [Errno 98] Address already in use"),
		exitAt(20*time.Millisecond, Exit{Code: 1}),
	}, time.Second)
	require.NotEmpty(t, history)
	assert.Contains(t, history[len(history)-1].Message, holder)
}

// The port a failure says is in use, from real lines.
func TestInUsePort(t *testing.T) {
	for want, lines := range map[int][]string{
		6379: {"1:M 22 Nov 2026 22:02:31.643 # Warning: Could not create server TCP listening socket *:6379: bind: Address already in use"},
		3000: {"Error: listen EADDRINUSE: address already in use :::3000"},
		8000: {"ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', 8000): address already in use"},
		5173: {"error when starting dev server:", "Error: listen EADDRINUSE: address already in use 127.0.0.1:5173"},
		27203: {`LOG:  could not bind IPv4 address "127.0.0.1": Address already in use`,
			"HINT:  Is another postmaster already running on port 27203? If not, wait a few seconds and retry."},
		0: {"OSError: [Errno 98] Address already in use"},
		// Go's net error, with no host (Echo logs it as JSON, whose
		// message procs reads).
		1323:  {"listen tcp :1323: bind: address already in use"},
		8081:  {"listen tcp4 :8081: bind: address already in use"},
		27952: {`Error: Port "27952" could not be used`}, // parcel
		29702: {"? Port 29702 is not available. Would you like to run Storybook on port 29703 instead? › (Y/n)"},
	} {
		port, _ := inUsePort(lines)
		assert.Equal(t, want, port, "%q", lines)
	}
	port, inUse := inUsePort([]string{"Server listening on port 3000"})
	assert.Equal(t, 0, port, "no line says it is in use")
	assert.Empty(t, inUse)
}

// A failure whose port is held by a process procs may not inspect (another
// user's: postgres run as its own user, the port held by root) says the
// port is in use all the same, and quotes the line that said so when the
// quoted cause is another (postgres's FATAL below its LOG). The lines are
// postgres 15's, as captured.
func TestAddressInUseByAnotherUsersProcess(t *testing.T) {
	spec := &Spec{ErrorPatterns: mustPatterns(t, `FATAL:`), ReadyTimeout: 30 * time.Second,
		PortInUse: func(port int) bool { return port == 30472 }}
	d := NewDetector(spec, 1, t0)
	history := drive(d, []step{
		lineAt(10*time.Millisecond, "2026-11-22 17:43:59.078 UTC [30099] LOG:  starting PostgreSQL 15.18 (Debian 15.18-0+deb12u1) on x86_64-pc-linux-gnu"),
		lineAt(10*time.Millisecond, `2026-11-22 17:43:59.078 UTC [30099] LOG:  could not bind IPv4 address "127.0.0.1": Address already in use`),
		lineAt(10*time.Millisecond, "2026-11-22 17:43:59.078 UTC [30099] HINT:  Is another postmaster already running on port 30472? If not, wait a few seconds and retry."),
		lineAt(10*time.Millisecond, `2026-11-22 17:43:59.078 UTC [30099] WARNING:  could not create listen socket for "127.0.0.1"`),
		lineAt(10*time.Millisecond, "2026-11-22 17:43:59.078 UTC [30099] FATAL:  could not create any TCP/IP sockets"),
		lineAt(10*time.Millisecond, "2026-11-22 17:43:59.080 UTC [30099] LOG:  database system is shut down"),
		exitAt(20*time.Millisecond, Exit{Code: 1}),
	}, time.Second)
	require.NotEmpty(t, history)
	msg := history[len(history)-1].Message
	assert.Contains(t, msg, `FATAL:  could not create any TCP/IP sockets`)
	assert.Contains(t, msg, `; port 30472 is in use by another user's process, which procs may not inspect: "2026-11-22 17:43:59.078 UTC [30099] LOG:  could not bind IPv4 address \"127.0.0.1\": Address already in use"`)
}
