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
