package rules

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCauseRank(t *testing.T) {
	better := [][2]string{
		{"SyntaxError: invalid syntax", "Traceback (most recent call last):"},
		{"ModuleNotFoundError: No module named 'x'", `  File "/srv/app.py", line 1, in <module>`},
		{"initdb: error: cannot be run as root", `initdb: hint: Please log in (using, e.g., "su") as the (unprivileged) user`},
		{"panic: runtime error: index out of range [3] with length 1", "goroutine 1 [running]:"},
		{"Error: Cannot find module 'express'", "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)"},
		{"vite.config.js:2:0: ERROR: Expected identifier but found end of file", "error when starting dev server:"},
		{"2026/11/22 22:02:50 [emerg] 25623#25623: unknown directive", "Usage: nginx [-?hvVtTq]"},
		{"FATAL:  could not create any TCP/IP sockets", "HINT:  Is another postmaster already running on port 27203?"},
	}
	for _, b := range better {
		assert.Greater(t, CauseRank(b[0]), CauseRank(b[1]), "%q over %q", b[0], b[1])
	}
}

// After the first error line, the failure is collected until the output is
// quiet or the process exits, and the line that explains it decides: on
// real output recorded here and for the presets.
func TestFixtureFailureCauses(t *testing.T) {
	tests := []struct {
		capture string
		errors  []string
		line    string   // the deciding line
		message []string // in the message
	}{
		// `flask run` (what `procs restart web` starts) on an app.py with a
		// syntax error: the top of the traceback is runpy and click.
		{"own/flask/syntax-error", []string{`^Error: `, `Address already in use`, `^Traceback \(most recent call last\)`},
			"SyntaxError: invalid syntax", []string{`error line "SyntaxError: invalid syntax" at `, `app.py, line 7`}},
		{"preset/flask/import-error", []string{`^Error: `, `Address already in use`, `^Traceback \(most recent call last\)`},
			"ModuleNotFoundError: No module named 'no_such_module'", []string{"app.py, line 1"}},
		// esbuild prints the error before vite says the config failed.
		{"preset/vite/bad-config", []string{`error when starting (dev|preview) server`, `failed to load config from`},
			"vite.config.js:2:0: ERROR: Expected identifier but found end of file", []string{"failed to load config from"}},
		{"preset/vite/v6-bad-config", []string{`error when starting (dev|preview) server`, `failed to load config from`},
			"vite.config.js:2:0: ERROR: Expected identifier but found end of file", nil},
		{"preset/django/bad-settings", []string{`^Traceback \(most recent call last\)`, `^Error: `},
			"ModuleNotFoundError: No module named 'no_such_app'", nil},
		{"own/python-http/port-in-use", []string{"Address already in use", "^Traceback"},
			"OSError: [Errno 98] Address already in use", []string{"socketserver.py, line "}},
		{"preset/postgres/port-in-use", []string{`FATAL:`},
			"FATAL:  could not create any TCP/IP sockets", nil},
		{"preset/nginx/bad-config", []string{`\[emerg\]`},
			`unknown directive "bogus_directive"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.capture, func(t *testing.T) {
			f := loadFixture(t, tt.capture)
			d := NewDetector(&Spec{ErrorPatterns: mustPatterns(t, tt.errors...), ReadyTimeout: 30 * time.Second}, 1, t0)
			history, ring := f.replay(d, nil)
			require.NotEmpty(t, history)
			assert.Equal(t, StateFailed, history[0].State, "%+v", history[0])
			assert.Contains(t, history[0].Line, tt.line)
			for _, m := range tt.message {
				assert.Contains(t, history[0].Message, m)
			}
			final := d.Verdict()
			if final.State == StateFailed {
				assert.Contains(t, final.Line, tt.line, "the exit keeps the cause")
			}
			res := NewResult("svc", 1, final, false, t0, t0.Add(2*time.Second), nil, ring)
			assert.Contains(t, strings.Join(res.Logs, "\n"), tt.line, "the result's logs hold the cause")
		})
	}
}

// The repros of issue 13 item 2 as crashes, with no error pattern: the exit
// quotes the line that explains it.
func TestFixtureCrashCauses(t *testing.T) {
	tests := []struct{ capture, message string }{
		{"own/initdb/as-root", `exit code 1; error line "initdb: error: cannot be run as root"`},
		{"own/python-worker/import-error", `exit code 1; last error line "ModuleNotFoundError: No module named 'notamodule'" at /tmp/`},
		{"preset/postgres/bad-datadir", `exit code 2; error line "postgres: could not access directory`},
	}
	for _, tt := range tests {
		t.Run(tt.capture, func(t *testing.T) {
			f := loadFixture(t, tt.capture)
			d := NewDetector(&Spec{}, 1, t0)
			history, _ := f.replay(d, nil)
			assert.NotContains(t, states(history), StateReady, "dead inside the settle window")
			assert.Contains(t, d.Verdict().Message, tt.message)
		})
	}
}

// Issue 13 item 6: a service that exits 0 leaving a daemon is failed with
// the fix named, not "a service is expected to keep running".
func TestDaemonizedExit(t *testing.T) {
	tests := []struct{ command, hint string }{
		{"nginx: master process nginx -c nginx.conf", `"daemon off;"`},
		{"/usr/bin/redis-server 127.0.0.1:6390", "--daemonize no"},
		{"/usr/lib/postgresql/15/bin/postgres -D pgdata", "instead of pg_ctl start"},
		{"mydaemon --bg", "run it in the foreground"},
	}
	for _, tt := range tests {
		d := NewDetector(&Spec{}, 1, t0)
		drive(d, []step{exitAt(time.Millisecond, Exit{Daemon: &Daemon{PID: 42, Command: tt.command, Ports: []int{6390}}})}, 0)
		v := d.Verdict()
		assert.Equal(t, StateFailed, v.State)
		assert.Equal(t, "daemonized", v.Reason)
		assert.Contains(t, v.Message, "left pid 42 ("+tt.command+") running on port 6390")
		assert.Contains(t, v.Message, tt.hint)
	}
	d := NewDetector(&Spec{Task: true}, 1, t0)
	drive(d, []step{exitAt(time.Millisecond, Exit{Daemon: &Daemon{PID: 42}})}, 0)
	assert.Equal(t, StateCompleted, d.Verdict().State, "a task may start a daemon")
}

// Issue 13 item 7: uvicorn --reload says "Uvicorn running on" about 250 ms
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
		{"never listens", Spec{ReadyLinePort: true, ReadyTimeout: time.Second}, []step{lineAt(10*time.Millisecond, line)},
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
				assert.Equal(t, line, history[0].Line)
			}
		})
	}
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
