package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A generic runtime's run that shows nothing is assumed ready after
// AssumeReadyAfter when its program is idle (a worker waiting for work),
// later while it is still busy starting on a CPU (a server still
// importing), and at AssumeBusyMax at the latest; it never is if it exits
// first.
func TestAssumedReadyWaitsWhileTheProgramIsBusy(t *testing.T) {
	ready, err := CompilePatterns([]string{`(?i)\blistening on\b`})
	require.NoError(t, err)
	spec := &Spec{ReadyPatterns: ready, ReadyOnListen: true, AssumeReadyAfter: 3 * time.Second}
	require.True(t, spec.WatchesPrograms(), "the engine must send its programs")
	t0 := time.Now()
	at := func(d time.Duration) time.Time { return t0.Add(d) }

	t.Run("idle", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		d.Handle(Event{Kind: EventExec, Time: at(100 * time.Millisecond), Program: "python3 worker.py\n", Busy: false})
		due, ok := d.Deadline()
		require.True(t, ok)
		assert.Equal(t, at(3*time.Second), due)
		v, _ := d.Handle(Event{Kind: EventTimer, Time: due})
		assert.Equal(t, StateReady, v.State)
		assert.Equal(t, ReasonAssumed, v.Reason)
		assert.Contains(t, v.Message, "running for 3s")
	})

	t.Run("busy, then idle", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		d.Handle(Event{Kind: EventExec, Time: at(100 * time.Millisecond), Program: "python3 app.py\n", Busy: true})
		v, _ := d.Handle(Event{Kind: EventTimer, Time: at(3 * time.Second)})
		assert.Equal(t, StateStarting, v.State, "still importing")
		v, _ = d.Handle(Event{Kind: EventExec, Time: at(4500 * time.Millisecond), Program: "python3 app.py\n", Busy: false})
		assert.Equal(t, StateReady, v.State)
		assert.Contains(t, v.Message, "running for 4.5s")
	})

	t.Run("busy for ever", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		d.Handle(Event{Kind: EventExec, Time: at(100 * time.Millisecond), Program: "python3 spin.py\n", Busy: true})
		due, ok := d.Deadline()
		require.True(t, ok)
		assert.Equal(t, at(AssumeBusyMax), due)
		v, _ := d.Handle(Event{Kind: EventTimer, Time: due})
		assert.Equal(t, StateReady, v.State)
	})

	t.Run("exits first", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		v, _ := d.Handle(Event{Kind: EventExit, Time: at(2 * time.Second), Exit: Exit{Code: 1}})
		assert.Equal(t, StateFailed, v.State)
	})
}

// A run that may be assumed ready and says it serves at an address of
// this machine ("[SUCCESS] Website is running at: http://localhost:3333/",
// Docusaurus 4 s before it binds) is a server: it is not assumed ready
// while its tree listens on nothing, for up to AssumeBusyMax, and is ready
// once it listens. A worker that names a server it connects to is still
// assumed ready on time.
func TestAServerThatSaysWhereItServesIsNotAssumedReadyBeforeItListens(t *testing.T) {
	// The node runtime's variant: no ready lines, ready by listening.
	spec := &Spec{ReadyOnListen: true, AssumeReadyAfter: 3 * time.Second}
	t0 := time.Now()
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	line := func(d time.Duration, text string) Event {
		return Event{Kind: EventLine, Time: at(d), Line: Line{Text: text}}
	}

	t.Run("binds later", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		d.Handle(Event{Kind: EventExec, Time: at(100 * time.Millisecond), Program: "node site\n", Busy: false})
		d.Handle(line(200*time.Millisecond, "[SUCCESS] Website is running at: http://localhost:3333/"))
		due, ok := d.Deadline()
		require.True(t, ok)
		assert.Equal(t, at(AssumeBusyMax), due, "not assumed at 3s")
		v, _ := d.Handle(Event{Kind: EventTimer, Time: at(3 * time.Second)})
		assert.Equal(t, StateStarting, v.State, "it said it serves, and listens on nothing yet")
		v, _ = d.Handle(Event{Kind: EventPorts, Time: at(4 * time.Second), Ports: []int{3333}})
		if v.State != StateReady {
			due, _ := d.Deadline()
			v, _ = d.Handle(Event{Kind: EventTimer, Time: due})
		}
		assert.Equal(t, StateReady, v.State)
		assert.Equal(t, ReasonReady, v.Reason, "%+v", v)
		assert.Contains(t, v.Message, "listening on port 3333")
	})

	t.Run("never binds", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		d.Handle(line(200*time.Millisecond, "Server at http://127.0.0.1:8080/"))
		v, _ := d.Handle(Event{Kind: EventTimer, Time: at(AssumeBusyMax)})
		assert.Equal(t, StateReady, v.State)
		assert.Equal(t, ReasonAssumed, v.Reason)
		assert.Contains(t, v.Message, "said it serves on port 8080, where it does not listen")
	})

	for _, text := range []string{
		"Connecting to the server at http://localhost:9200",
		"Proxying /api to http://localhost:4000",
		"fetched http://localhost:8080/health in 12ms",
	} {
		t.Run(text, func(t *testing.T) {
			d := NewDetector(spec, 1, t0)
			d.Handle(line(200*time.Millisecond, text))
			due, ok := d.Deadline()
			require.True(t, ok)
			assert.Equal(t, at(3*time.Second), due, "a worker's line")
		})
	}
}

// The lines real programs print where they serve, and lines that name a
// local server they use.
func TestAnnouncedPort(t *testing.T) {
	for line, want := range map[string]int{
		"[11ty] Server at http://localhost:8080/":                             8080, // Eleventy
		"[SUCCESS] Docusaurus website is running at: http://localhost:3000/":  3000,
		"INFO    -  [12:00:01] Serving on http://127.0.0.1:8000/":             8000, // mkdocs serve
		"[wrangler:info] Ready on http://localhost:8787":                      8787,
		"  ➜  Local:   http://localhost:5173/":                                5173, // Vite
		"Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)":       8000,
		"Listening on http://[::1]:4000":                                      4000,
		"Connecting to the server at http://localhost:9200":                   0,
		"Proxying /api to http://localhost:4000":                              0,
		"[HPM] Proxy created: /  -> http://localhost:3001":                    0,
		"fetched http://localhost:8080/health in 12ms":                        0,
		"Server running at https://example.com:8443/":                         0, // not this machine
		"Started in 1.2s; docs at http://localhost:6006 and the API at :7000": 6006,
	} {
		assert.Equal(t, want, announcedPort(line), line)
	}
}
