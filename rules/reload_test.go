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
