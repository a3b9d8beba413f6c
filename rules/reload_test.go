package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A dev server's reloader that recovers from an error brings the run back
// to ready: flask --debug, as it printed (Flask 3.1), broken by an edit and
// then fixed. Its "Debugger is active!" comes after the failed reload too:
// that one must not count.
func TestReloaderRecoversAfterACleanReload(t *testing.T) {
	compile := func(srcs ...string) []Pattern {
		p, err := CompilePatterns(srcs)
		require.NoError(t, err)
		return p
	}
	spec := &Spec{
		ReadyPatterns:     compile(`^\s*\* Running on https?://`),
		ErrorPatterns:     compile(`^Traceback \(most recent call last\)`, `^Error: `),
		ReloadPatterns:    compile(`^\s*\* Restarting with `),
		RecoveredPatterns: compile(`^\s*\* Debugger is active!`),
	}
	t0 := time.Now()
	d := NewDetector(spec, 1, t0)
	at := t0
	feed := func(lines ...string) Verdict {
		var v Verdict
		for _, text := range lines {
			at = at.Add(time.Millisecond)
			v, _ = d.Handle(Event{Kind: EventLine, Time: at, Line: Line{Text: text}})
		}
		return v
	}
	require.Equal(t, StateReady, feed(" * Serving Flask app 'app'", " * Debug mode: on",
		" * Running on http://127.0.0.1:5077", " * Restarting with stat", " * Debugger is active!").State)

	broken := feed(" * Detected change in '/srv/app/app.py', reloading", " * Restarting with stat",
		"Traceback (most recent call last):", `  File "/srv/app/app.py", line 7`, "    def broken(:",
		"SyntaxError: invalid syntax", " * Debugger is active!", " * Debugger PIN: 216-364-442")
	assert.Equal(t, StateUnhealthy, broken.State, "the failed reload's Debugger line is no recovery")
	assert.Equal(t, "SyntaxError: invalid syntax", broken.Line, "the line that explains the error, not the Traceback's first")
	assert.Contains(t, broken.Message, `after "Traceback (most recent call last):" matched`)

	fixed := feed(" * Detected change in '/srv/app/app.py', reloading", " * Restarting with stat",
		" * Debugger is active!")
	assert.Equal(t, StateReady, fixed.State)
	assert.Equal(t, ReasonRecovered, fixed.Reason)
	assert.Contains(t, fixed.Message, "reloaded without an error")
}

// A reloader that restarts the app (node --watch, nodemon) closes its port
// when the new app fails and opens it again once an edit fixes it: seen
// closed and then open again, the unhealthy run is ready again, even when
// the app prints nothing. A port that never closed (werkzeug's reloader
// keeps its socket) brings nothing back.
func TestPortOpenAgainRecoversAReloadedApp(t *testing.T) {
	errs, err := CompilePatterns([]string{`^(TypeError|ReferenceError|SyntaxError|Error): `})
	require.NoError(t, err)
	spec := &Spec{ErrorPatterns: errs, Port: 4000}
	t0 := time.Now()
	d := NewDetector(spec, 1, t0)
	at := t0
	feed := func(ev Event) Verdict {
		at = at.Add(time.Millisecond)
		ev.Time = at
		v, _ := d.Handle(ev)
		return v
	}
	require.Equal(t, StateReady, feed(Event{Kind: EventPorts, Ports: []int{4000}}).State)

	require.Equal(t, StateUnhealthy, feed(Event{Kind: EventLine, Line: Line{Text: "SyntaxError: Unexpected identifier 'x'"}}).State)
	assert.Equal(t, StateUnhealthy, feed(Event{Kind: EventPorts, Ports: []int{4000}}).State,
		"a port that stayed open says nothing of a fix")
	assert.Equal(t, StateUnhealthy, feed(Event{Kind: EventPorts, Ports: nil}).State)
	back := feed(Event{Kind: EventPorts, Ports: []int{4000}})
	assert.Equal(t, StateReady, back.State)
	assert.Equal(t, ReasonRecovered, back.Reason)
	assert.Contains(t, back.Message, "port 4000 open again")
}

// An unhealthy run's verdict says where the error is when the lines above
// it do, as a failed run's does: node --watch, as Node 20 printed a
// SyntaxError after an edit.
func TestUnhealthyVerdictSaysWhereNodeFoundTheError(t *testing.T) {
	ready, err := CompilePatterns([]string{`(?i)\blistening\b.*\bport\s*\d+`})
	require.NoError(t, err)
	errs, err := CompilePatterns([]string{`^(TypeError|ReferenceError|SyntaxError|Error): `})
	require.NoError(t, err)
	d := NewDetector(&Spec{ReadyPatterns: ready, ErrorPatterns: errs}, 1, time.Now())
	var v Verdict
	for _, text := range []string{"listening on port 4000", "Restarting 'server.js'",
		"/srv/app/server.js:3", "syntax error here(", "       ^^^^^", "",
		"SyntaxError: Unexpected identifier 'error'", "    at wrapSafe (node:internal/modules/cjs/loader:1464:18)"} {
		v, _ = d.Handle(Event{Kind: EventLine, Time: time.Now(), Line: Line{Text: text}})
	}
	assert.Equal(t, StateUnhealthy, v.State)
	assert.Equal(t, "SyntaxError: Unexpected identifier 'error'", v.Line)
	assert.Contains(t, v.Message, "at /srv/app/server.js:3")
}

// An error in one request makes a ready server unhealthy; a request it
// answers with success afterwards shows it serving again: flask run, as
// werkzeug logged a view's ConnectionRefusedError while its redis was
// stopped (Flask 3.1), then the same request once redis was back. The
// failed request's own access line (500) brings nothing back.
func TestServedRequestRecoversAnUnhealthyServer(t *testing.T) {
	feed := serverFeed(t, `^\s*\* Running on https?://`, `^Traceback \(most recent call last\)`)
	require.Equal(t, StateReady, feed(Event{Kind: EventPorts, Ports: []int{5058}},
		lineEvent(" * Running on http://127.0.0.1:5058"), lineEvent(`127.0.0.1 - - [29/Nov/2026 16:11:08] "GET / HTTP/1.1" 200 -`)).State)

	broken := feed(lineEvent("[2026-11-29 16:11:16,810] ERROR in app: Exception on / [GET]"),
		lineEvent("Traceback (most recent call last):"),
		lineEvent(`  File "/srv/app/app.py", line 6, in incr`),
		lineEvent("ConnectionRefusedError: [Errno 111] Connection refused"),
		lineEvent(`127.0.0.1 - - [29/Nov/2026 16:11:16] "GET / HTTP/1.1" 500 -`))
	assert.Equal(t, StateUnhealthy, broken.State, "the failed request's 500 is no recovery")

	back := feed(lineEvent(`127.0.0.1 - - [29/Nov/2026 16:11:23] "GET / HTTP/1.1" 200 -`))
	assert.Equal(t, StateReady, back.State)
	assert.Equal(t, ReasonRecovered, back.Reason)
	assert.Equal(t, `recovered: served "127.0.0.1 - - [29/Nov/2026 16:11:23] \"GET / HTTP/1.1\" 200 -"`, back.Message)

	again := feed(lineEvent("Traceback (most recent call last):"), lineEvent("ConnectionRefusedError: [Errno 111] Connection refused"))
	assert.Equal(t, StateUnhealthy, again.State, "the next error is news again")
}

// Another page served says nothing of the one that failed: a Next.js
// page that does not compile (its GET / answered 500) is not back when
// another page is served, only when it is (lines of Next.js 16.4.6).
func TestServedRequestMustBeTheOneThatFailed(t *testing.T) {
	feed := serverFeed(t, `\bReady in \d`, `^\s*⨯ `)
	require.Equal(t, StateReady, feed(Event{Kind: EventPorts, Ports: []int{3091}}, lineEvent("✓ Ready in 576ms")).State)
	require.Equal(t, StateUnhealthy, feed(lineEvent("⨯ ./app/page.js:1:57"), lineEvent("Error: Expression expected"),
		lineEvent(" GET / 500 in 1590ms (next.js: 1447ms, application-code: 143ms)")).State)

	upgraded := feed(lineEvent("GET / 101 1.204 ms - -"))
	assert.Equal(t, StateUnhealthy, upgraded.State, "a switch of protocols (a websocket) serves no page")

	other := feed(lineEvent(" GET /about 200 in 41ms (next.js: 3ms, application-code: 38ms)"))
	assert.Equal(t, StateUnhealthy, other.State, "another page served: / still fails")

	back := feed(lineEvent(" GET / 200 in 55ms (next.js: 4ms, application-code: 51ms)"))
	assert.Equal(t, StateReady, back.State, back.Message)
	assert.Equal(t, ReasonRecovered, back.Reason)
}

// serverFeed returns a function that hands a detector of a server (ready
// and error patterns) its events 1 ms apart, and the verdict after them.
func serverFeed(t *testing.T, readyPattern, errorPattern string) func(...Event) Verdict {
	t.Helper()
	ready, err := CompilePatterns([]string{readyPattern})
	require.NoError(t, err)
	errs, err := CompilePatterns([]string{errorPattern})
	require.NoError(t, err)
	d := NewDetector(&Spec{ReadyPatterns: ready, ErrorPatterns: errs}, 1, time.Now())
	at := time.Now()
	return func(evs ...Event) Verdict {
		var v Verdict
		for _, ev := range evs {
			at = at.Add(time.Millisecond)
			ev.Time = at
			v, _ = d.Handle(ev)
		}
		return v
	}
}

// lineEvent is a line event of text.
func lineEvent(text string) Event { return Event{Kind: EventLine, Line: Line{Text: text}} }

// A run that listens on no port serves nothing: a line like an access
// log's (a client logging what it fetched) does not bring it back.
func TestServedRequestNeedsAListeningRun(t *testing.T) {
	errs, err := CompilePatterns([]string{`^Error: `})
	require.NoError(t, err)
	ready, err := CompilePatterns([]string{`^worker started`})
	require.NoError(t, err)
	d := NewDetector(&Spec{ReadyPatterns: ready, ErrorPatterns: errs}, 1, time.Now())
	for _, text := range []string{"worker started", "Error: job 7 failed", `GET /api/jobs 200 12.1 ms - 2`} {
		d.Handle(Event{Kind: EventLine, Time: time.Now(), Line: Line{Text: text}})
	}
	assert.Equal(t, StateUnhealthy, d.Verdict().State)
}

// accessLine knows the access lines of the common servers; a request is
// served when it was answered with a success or a redirect.
func TestServedRequestLines(t *testing.T) {
	servedRequest := func(text string) bool {
		_, status, ok := accessLine(text)
		return ok && status >= 200 && status < 400
	}
	for _, text := range []string{
		`127.0.0.1 - - [29/Nov/2026 16:11:23] "GET / HTTP/1.1" 200 -`,                              // werkzeug
		`127.0.0.1 - - [23/Nov/2026:14:36:48 +0000] "GET /health HTTP/1.1" 204 0 "-" "curl/8.5.0"`, // nginx, gunicorn
		`INFO:     127.0.0.1:50512 - "POST /items HTTP/1.1" 201 Created`,                           // uvicorn
		`[29/Nov/2026 16:11:23] "GET /admin/ HTTP/1.1" 302 0`,                                      // django runserver
		`GET / 200 3.123 ms - 12`, // morgan dev
		` GET / 200 in 35ms`,      // next dev
		`Completed 200 OK in 12ms (Views: 10.1ms | ActiveRecord: 0.4ms | Allocations: 1234)`, // rails
	} {
		assert.True(t, servedRequest(text), text)
	}
	for _, text := range []string{
		`127.0.0.1 - - [29/Nov/2026 16:11:16] "GET / HTTP/1.1" 500 -`,
		`127.0.0.1 - - [23/Nov/2026 14:36:33] "GET /health HTTP/1.1" 404 -`,
		`INFO:     127.0.0.1:50512 - "GET / HTTP/1.1" 500 Internal Server Error`,
		` GET / 500 in 1234ms`,
		`Completed 500 Internal Server Error in 12ms`,
		`fetched GET https://example.com/ 200`,
		`2026-11-29 16:11:23 200 items indexed`,
	} {
		assert.False(t, servedRequest(text), text)
	}
}
