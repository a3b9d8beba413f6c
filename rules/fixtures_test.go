package rules

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/capture"
)

// capturesDir holds real runs of real programs, in the repository: the
// six shared fixtures (express, flask, go, postgres, redis, vite) and the
// runs recorded here with builtin-frameworks/internal/recorder (see its
// README.md). builtin-frameworks' verdict tests replay them too.
const capturesDir = "testdata/captures"

// presetCaptures holds the presets' own captures, named "preset/SERVER/SCENARIO".
const presetCaptures = "../builtin-frameworks/testdata/captures"

type fixture struct {
	meta   capture.Meta
	chunks []capture.Chunk
}

// loadFixture reads the capture SERVER/SCENARIO of capturesDir.
func loadFixture(t *testing.T, name string) fixture {
	t.Helper()
	dir := filepath.Join(capturesDir, name)
	if preset, ok := strings.CutPrefix(name, "preset/"); ok {
		dir = filepath.Join(presetCaptures, preset)
	}
	c, err := capture.Load(dir)
	require.NoError(t, err)
	return fixture{meta: c.Meta, chunks: c.Chunks}
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// exit is the exit meta.json records; a signal sent by the capture tool is
// a stop procs would have requested.
func (f fixture) exit() (Exit, time.Duration, bool) {
	if !f.meta.Exited() {
		return Exit{}, 0, false
	}
	e := Exit{Requested: f.meta.Signal != nil}
	if f.meta.ExitCode != nil {
		e.Code = *f.meta.ExitCode
	}
	if f.meta.ExitSignal != nil {
		for sig, name := range signalNames {
			if name == *f.meta.ExitSignal {
				e.Signal, e.Code = sig, 128+int(sig)
			}
		}
	}
	return e, seconds(f.meta.ExitT), true
}

// replay feeds the capture through splitters (one per stream, as the
// engine reads them) into d, with the captured timings, the port opening
// when it really did, and the recorded exit. It returns the changed
// verdicts and the lines, with the ring they went to.
func (f fixture) replay(d *Detector, skip func(Line) bool) ([]Verdict, *Ring) {
	ring := NewRing(200)
	var steps []step
	var now time.Time
	splitters := map[string]*Splitter{}
	for _, stream := range []string{"stdout", "stderr", "pty"} {
		s := NewSplitter(map[string]Stream{"stdout": StreamStdout, "stderr": StreamStderr, "pty": StreamPTY}[stream], DefaultMaxLine, func(l Line) {
			if skip != nil && skip(l) {
				return
			}
			ring.Add(l)
			steps = append(steps, step{l.Time.Sub(t0), Event{Kind: EventLine, Line: l}})
		})
		s.SetClock(func() time.Time { return now })
		splitters[stream] = s
	}
	portDone := f.meta.PortOpenT == nil
	for _, c := range f.chunks {
		if !portDone && seconds(*f.meta.PortOpenT) <= seconds(c.T) {
			steps, portDone = append(steps, portsAt(seconds(*f.meta.PortOpenT), f.meta.Port)), true
		}
		now = t0.Add(seconds(c.T))
		_, _ = splitters[c.Stream].Write(c.Data)
	}
	if !portDone {
		steps = append(steps, portsAt(seconds(*f.meta.PortOpenT), f.meta.Port))
	}
	for _, s := range splitters {
		s.Flush()
	}
	if e, at, ok := f.exit(); ok {
		steps = append(steps, exitAt(at, e))
	}
	return drive(d, steps, 0), ring
}

func TestFixtures(t *testing.T) {
	type want struct {
		decided    State  // the first verdict other than starting
		line       string // its deciding line (substring)
		final      State
		exitCode   int
		neverReady bool
	}
	tests := []struct {
		capture        string
		ready, errors  []string
		stabilityDelay time.Duration
		want           want
	}{
		{"express/start-sigint", []string{"listening on port"}, []string{"EADDRINUSE", "^Error:"}, 0,
			want{StateReady, "Example app listening on port 37355", StateStopped, 130, false}},
		{"flask/import-error", []string{"Running on http"}, []string{`^Error:|Traceback`}, 0,
			want{StateFailed, "ModuleNotFoundError: No module named 'flask_sqlalchemy'", StateFailed, 2, true}},
		// The trap: the ready line comes first, the error 1 ms later.
		{"go/port-in-use", []string{"listening on"}, []string{"address already in use"}, 100 * time.Millisecond,
			want{StateFailed, "listen tcp :30932: bind: address already in use", StateFailed, 1, true}},
		{"postgres/port-in-use", []string{"database system is ready to accept connections"}, []string{"FATAL:"}, 0,
			want{StateFailed, "FATAL:  could not create any TCP/IP sockets", StateFailed, 1, true}},
		{"redis/start-sigint-pty", []string{"Ready to accept connections"}, []string{"Could not create server TCP listening socket"}, 0,
			want{StateReady, "* Ready to accept connections", StateStopped, 0, false}},
		{"vite/dev-pty", []string{"ready in"}, []string{`error when starting dev server`}, 0,
			want{StateReady, "VITE v5.4.21  ready in 197 ms", StateStopped, 130, false}},

		// Recorded here.
		{"node-http/start", []string{"listening on"}, []string{"EADDRINUSE"}, 0,
			want{StateReady, "listening on http://127.0.0.1:28901", StateStopped, 130, false}},
		// The word "listening" is only in node's stack trace: an error line.
		{"node-http/port-in-use", []string{"listening on"}, []string{"EADDRINUSE"}, 0,
			want{StateFailed, "Error: listen EADDRINUSE: address already in use 127.0.0.1:28902", StateFailed, 1, true}},
		{"python-http/start", []string{"^Serving HTTP on"}, []string{"Address already in use", "^Traceback"}, 0,
			want{StateReady, "Serving HTTP on 127.0.0.1 port 28903", StateStopped, 0, false}},
		{"python-http/port-in-use", []string{"^Serving HTTP on"}, []string{"Address already in use", "^Traceback"}, 0,
			want{StateFailed, "OSError: [Errno 98] Address already in use", StateFailed, 1, true}},
	}
	for _, tt := range tests {
		t.Run(tt.capture, func(t *testing.T) {
			f := loadFixture(t, tt.capture)
			spec := &Spec{ReadyPatterns: mustPatterns(t, tt.ready...), ErrorPatterns: mustPatterns(t, tt.errors...),
				StabilityDelay: tt.stabilityDelay, ReadyTimeout: 30 * time.Second}
			d := NewDetector(spec, 1, t0)
			history, ring := f.replay(d, nil)
			require.NotEmpty(t, history)
			decided := history[0]
			assert.Equal(t, tt.want.decided, decided.State, "first verdict %+v", decided)
			assert.Contains(t, decided.Line, tt.want.line)
			if f.meta.ReadyLine != nil && decided.State == StateReady {
				assert.Equal(t, *f.meta.ReadyLine, decided.Line, "the line a person calls ready")
			}
			if tt.want.neverReady {
				assert.NotContains(t, states(history), StateReady)
			}
			final := d.Verdict()
			assert.Equal(t, tt.want.final, final.State, "final %+v", final)
			assert.Equal(t, tt.want.exitCode, final.ExitCode)
			if final.State == StateFailed {
				assert.Equal(t, decided.Line, final.Line, "the exit keeps the deciding line")
			}
			res := NewResult("svc", 1, final, false, t0, t0.Add(2*time.Second), d.Ports(), ring)
			require.NotEmpty(t, res.Logs)
			assert.LessOrEqual(t, len(res.Logs), ResultLogLines)
			for _, l := range res.Logs {
				assert.NotEmpty(t, strings.TrimSpace(l), "blank lines are left out")
				assert.NotContains(t, l, "\x1b")
			}
		})
	}
}

// Only the ready line makes a run ready: without it, nothing else in the
// capture does (redis's "ready to exit, bye bye" in particular).
func TestFixturesOnlyTheReadyLineIsReady(t *testing.T) {
	tests := []struct{ capture, ready string }{
		{"redis/start-sigint-pty", "Ready to accept connections"},
		{"vite/dev-pty", "ready in"},
		{"express/start-sigint", "listening on port"},
	}
	for _, tt := range tests {
		t.Run(tt.capture, func(t *testing.T) {
			f := loadFixture(t, tt.capture)
			require.NotNil(t, f.meta.ReadyLine)
			d := NewDetector(&Spec{ReadyPatterns: mustPatterns(t, tt.ready)}, 1, t0)
			history, _ := f.replay(d, func(l Line) bool { return l.Text == *f.meta.ReadyLine })
			assert.NotContains(t, states(history), StateReady)
		})
	}
}

// Without a stability delay the go trap is ready for a millisecond, then
// unhealthy (an error while up), then failed when it exits: the engine sees
// all three, and the delay is what prevents the first.
func TestFixtureGoReadyThenErrorWithoutDelay(t *testing.T) {
	f := loadFixture(t, "go/port-in-use")
	d := NewDetector(&Spec{ReadyPatterns: mustPatterns(t, "listening on"), ErrorPatterns: mustPatterns(t, "address already in use")}, 1, t0)
	history, _ := f.replay(d, nil)
	assert.Equal(t, []State{StateReady, StateUnhealthy, StateFailed}, states(history))
}
