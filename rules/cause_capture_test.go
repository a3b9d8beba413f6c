package rules

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Pairs of real lines of one failure: the first explains the
// failure better than the second.
func TestCauseRankOfRealPairs(t *testing.T) {
	better := [][2]string{
		{"SyntaxError: invalid syntax", "Traceback (most recent call last):"},
		{"ModuleNotFoundError: No module named 'x'", `  File "/srv/app.py", line 1, in <module>`},
		{"initdb: error: cannot be run as root", `initdb: hint: Please log in (using, e.g., "su") as the (unprivileged) user`},
		{"panic: runtime error: index out of range [3] with length 1", "goroutine 1 [running]:"},
		{"Error: Cannot find module 'express'", "    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)"},
		{"vite.config.js:2:0: ERROR: Expected identifier but found end of file", "error when starting dev server:"},
		{"2026/11/22 22:02:50 [emerg] 25623#25623: unknown directive", "Usage: nginx [-?hvVtTq]"},
		{"FATAL:  could not create any TCP/IP sockets", "HINT:  Is another postmaster already running on port 27203?"},
		{"Bad directive or wrong number of arguments", "*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***"},
		{"# Warning: Could not create server TCP listening socket 127.0.0.1:27103: bind: Address already in use",
			"# Failed listening on port 27103 (TCP), aborting."},
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
		{"flask/syntax-error", []string{`^Error: `, `Address already in use`, `^Traceback \(most recent call last\)`},
			"SyntaxError: invalid syntax", []string{`error line "SyntaxError: invalid syntax" at `, `app.py, line 7`}},
		{"preset/flask/import-error", []string{`^Error: `, `Address already in use`, `^Traceback \(most recent call last\)`},
			"ModuleNotFoundError: No module named 'no_such_module'", []string{"app.py, line 1"}},
		// esbuild prints the error before vite says the config failed.
		{"preset/vite/bad-config", []string{`error when starting (dev|preview) server`, `failed to load config from`},
			"vite.config.js:2:0: ERROR: Expected identifier but found end of file", []string{"failed to load config from"}},
		{"preset/vite/v6-bad-config", []string{`error when starting (dev|preview) server`, `failed to load config from`},
			"vite.config.js:2:0: ERROR: Expected identifier but found end of file", nil},
		// Vite 8 bundles its config with Rolldown: Oxc's diagnostic over
		// the excerpt it heads with the place.
		{"preset/vite/v8-bad-config", []string{`error when starting (dev|preview) server`, `failed to load config from`},
			"[PARSE_ERROR] Unexpected token", []string{`error line "[PARSE_ERROR] Unexpected token" at vite.config.js:1:`}},
		{"preset/django/bad-settings", []string{`^Traceback \(most recent call last\)`, `^Error: `},
			"ModuleNotFoundError: No module named 'no_such_app'", nil},
		{"python-http/port-in-use", []string{"Address already in use", "^Traceback"},
			"OSError: [Errno 98] Address already in use", []string{"socketserver.py, line "}},
		{"preset/postgres/port-in-use", []string{`FATAL:`},
			"FATAL:  could not create any TCP/IP sockets", nil},
		{"preset/nginx/bad-config", []string{`\[emerg\]`},
			`unknown directive "bogus_directive"`, nil},
		// Redis' banner names the kind of error; below it, ">>> '…'" quotes
		// the line at fault (of the config file, or made of the command's
		// options), and the line below that says what is wrong with it.
		{"preset/redis/bad-config", []string{`\*\*\* FATAL CONFIG FILE ERROR`, `Bad directive or wrong number of arguments`},
			"Bad directive or wrong number of arguments", []string{`error line "Bad directive or wrong number of arguments" at 'no-such-directive "yes"' (after "*** FATAL CONFIG FILE ERROR (Redis 7.0.15) ***"`}},
		{"preset/redis/bogus-option", []string{`\*\*\* FATAL CONFIG FILE ERROR`, `Bad directive or wrong number of arguments`},
			"Bad directive or wrong number of arguments", []string{`error line "Bad directive or wrong number of arguments" at 'bogus-option "yes"' (after `}},
		{"preset/redis/bad-value", []string{`\*\*\* FATAL CONFIG FILE ERROR`},
			"argument must be a memory value", []string{`error line "argument must be a memory value" at 'maxmemory "lots"' (after `}},
		// The line that fails the run only reports; the one above says why.
		{"preset/redis/port-in-use", []string{`# (Failed listening on port|Could not create server TCP listening socket)`},
			"bind: Address already in use", []string{`error line "25084:M 22 Nov 2026 22:02:31.643 # Warning: Could not create server TCP listening socket 127.0.0.1:27103: bind: Address already in use" (after "25084:M 22 Nov 2026 22:02:31.643 # Failed listening on port 27103 (TCP), aborting."`}},
		// go run's build failure: the package line fails the run, the
		// compiler's file:line:col message below it says why.
		{"preset/go/compile-error", []string{`^# \S+$`, `^exit status [1-9]\d*$`},
			"./main.go:9:2: undefined: undefinedThing", []string{`error line "./main.go:9:2: undefined: undefinedThing" (after "# example.com/app" matched`}},
		{"preset/go/panic", []string{`^panic: `, `^exit status [1-9]\d*$`},
			"panic: assignment to entry in nil map", []string{`main.go:9`}},
		{"preset/go/fatal", []string{`^panic: `, `^exit status [1-9]\d*$`},
			"failed to connect to database: dial tcp 127.0.0.1:27719: connect: connection refused", []string{`(after "exit status 1" matched`}},
		// An import error's traceback ends in importlib's frozen frames:
		// the location is the last frame of a file.
		{"preset/gunicorn/import-error", []string{`\[ERROR\] Exception in worker process`},
			"ModuleNotFoundError: No module named 'nosuch'", []string{`at /usr/lib/python3/dist-packages/gunicorn/util.py, line 384`}},
		// Deno (and Node's ES modules) name the module in a stack frame as
		// a file: URL; the frames of its own runtime are "ext:".
		{"preset/deno/syntax-error", []string{`^error: `},
			"error: SyntaxError: Expected ',', got ';'", []string{`at /tmp/procs-capture-3496304051/server.ts:2:25`}},
		{"preset/deno/missing-module", []string{`^error: `},
			`error: Module not found "file:///tmp/procs-capture-116873959/nope.ts".`, []string{`at /tmp/procs-capture-116873959/server.ts:1:19`}},
		{"preset/deno/no-permission", []string{`^error: `},
			"NotCapable: Requires net access", []string{`run again with the --allow-net flag" at /tmp/procs-capture-2443884993/server.ts:1:6`}},
		// Gatsby's reporter heads an error with its severity and its id or
		// category (" ERROR  UNKNOWN", " ERROR #98123  WEBPACK.DEVELOP"),
		// and says what it is below. Outside a site, yargs prints the
		// command's help under a first heading, and the message under a
		// second.
		{"preset/gatsby/not-a-site", []string{`EADDRINUSE`, `^\s*ERROR\s+(#\d+|UNKNOWN)\b`},
			"gatsby <develop> can only be run for a gatsby site.", nil},
		{"preset/redis/bad-config-file", []string{`\*\*\* FATAL CONFIG FILE ERROR`},
			"argument must be 'yes' or 'no'", []string{`error line "argument must be 'yes' or 'no'" at 'appendonly maybe' (after `}},
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

// Real failures replayed as crashes, with no error pattern: the exit
// quotes the line that explains it.
func TestFixtureCrashCauses(t *testing.T) {
	tests := []struct{ capture, message string }{
		{"initdb/as-root", `exit code 1; error line "initdb: error: cannot be run as root"`},
		{"python-worker/import-error", `exit code 1; last error line "ModuleNotFoundError: No module named 'notamodule'" at /tmp/`},
		{"preset/postgres/bad-datadir", `exit code 2; error line "postgres: could not access directory`},
		{"preset/redis/bad-value", `exit code 1; last error line "argument must be a memory value" at 'maxmemory "lots"'`},
		// The line below the error only says where it is; the one that
		// only says loading failed reports the dlopen error above it.
		{"mosquitto/bad-config", `exit code 3; error line "1795902332: Error: Unknown configuration variable \"bogus_option\"." at /tmp/procs-capture-1372710396/mosquitto.conf:3`},
		{"lighttpd/bad-module", `exit code 255; error line "2026-11-28 21:45:32: (plugin.c.214) dlopen() failed for: /usr/lib/lighttpd/mod_nonexistent.so`},
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

// A ready run killed from outside (kill -9, the OOM killer) says how it
// ended and no more: postgres logs on stderr, and its last stderr line is
// its ready line, which says nothing of why it ended and is no error line.
func TestCrashOfAReadyRunQuotesNoReadyLineAsItsError(t *testing.T) {
	f := loadFixture(t, "preset/postgres/killed")
	f.meta.Signal = nil // the SIGKILL came from outside: procs did not ask for it
	d := NewDetector(&Spec{ReadyPatterns: mustPatterns(t, `database system is ready to accept connections`),
		ErrorPatterns: mustPatterns(t, `FATAL:`)}, 1, t0)
	history, _ := f.replay(d, nil)
	require.Contains(t, states(history), StateReady)
	final := d.Verdict()
	require.Equal(t, StateFailed, final.State, "%+v", final)
	assert.True(t, strings.HasPrefix(final.Message, "killed by SIGKILL"), final.Message)
	assert.NotContains(t, final.Message, "error line", "the ready line is no error line: %s", final.Message)
	assert.Empty(t, final.Line, "no line explains a kill from outside")
}

// RabbitMQ's boot failure quotes the Erlang exception, not a frame of its
// stack (each of which says "line N").
func TestFixtureFailureCauseOfAnErlangBoot(t *testing.T) {
	f := loadFixture(t, "preset/rabbitmq/unreadable-dir")
	d := NewDetector(&Spec{ReadyPatterns: mustPatterns(t, `Server startup complete`), ErrorPatterns: mustPatterns(t, `BOOT FAILED`),
		ReadyTimeout: 60 * time.Second}, 1, t0)
	history, _ := f.replay(d, nil)
	require.NotEmpty(t, history)
	assert.Equal(t, StateFailed, history[0].State, "%+v", history[0])
	assert.Equal(t, `throw:{feature_flags_file_read_error,"/tmp/procs-capture-1837489026/feature_flags",eacces}`, history[0].Line)
}
