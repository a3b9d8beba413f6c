package frameworks

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/capture"
	"github.com/procsdev/procs/rules"
)

// Captures are real runs of real programs (package internal/capture): ours
// in testdata/captures (recorded by internal/recorder/capture-all.sh), and
// the rules package's, which hold the six shared fixtures; of those, the
// ones whose folder names a preset are replayed here too.
const (
	ownCaptures   = "testdata/captures"
	rulesCaptures = "../rules/testdata/captures"
)

// findCaptures lists <root>/<server>/<scenario>/ folders with a meta.json.
func findCaptures(t *testing.T, root string) []string {
	t.Helper()
	dirs, err := capture.Find(root)
	require.NoError(t, err)
	return dirs
}

func loadCapture(t *testing.T, dir string) capture.Capture {
	t.Helper()
	c, err := capture.Load(dir)
	require.NoError(t, err)
	return c
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

var streams = map[string]rules.Stream{"stdout": rules.StreamStdout, "stderr": rules.StreamStderr, "pty": rules.StreamPTY}

// captureEvents turns a capture into the events the engine would have seen, in
// time order: its lines (split per stream, as the engine reads them), the
// port opening when it really did, and the recorded exit.
func captureEvents(c capture.Capture, t0 time.Time) []rules.Event {
	var evs []rules.Event
	var now time.Time
	splitters := map[string]*rules.Splitter{}
	for name, stream := range streams {
		s := rules.NewSplitter(stream, rules.DefaultMaxLine, func(l rules.Line) {
			evs = append(evs, rules.Event{Kind: rules.EventLine, Time: l.Time, Line: l})
		})
		s.SetClock(func() time.Time { return now })
		splitters[name] = s
	}
	for _, ch := range c.Chunks {
		now = t0.Add(seconds(ch.T))
		_, _ = splitters[ch.Stream].Write(ch.Data)
	}
	for _, name := range []string{"stdout", "stderr", "pty"} {
		splitters[name].Flush()
	}
	if c.Meta.PortOpenT != nil && c.Meta.Port != 0 {
		evs = append(evs, rules.Event{Kind: rules.EventPorts, Time: t0.Add(seconds(*c.Meta.PortOpenT)), Ports: []int{c.Meta.Port}})
	}
	if c.Meta.Exited() {
		evs = append(evs, rules.Event{Kind: rules.EventExit, Time: t0.Add(seconds(c.Meta.ExitT)), Exit: captureExit(c)})
	}
	// Lines at EOF were flushed at the last chunk's time; the exit comes
	// after them even when recorded in the same millisecond.
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Time.Before(evs[j].Time) })
	return evs
}

// captureExit is the recorded end; a signal the recorder sent is a stop procs
// would have requested.
func captureExit(c capture.Capture) rules.Exit {
	e := rules.Exit{Requested: c.Meta.SignalAt != nil}
	if c.Meta.ExitCode != nil {
		e.Code = *c.Meta.ExitCode
	}
	if c.Meta.ExitSignal != nil {
		sig := map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM,
			"SIGKILL": syscall.SIGKILL, "SIGQUIT": syscall.SIGQUIT, "SIGHUP": syscall.SIGHUP}[*c.Meta.ExitSignal]
		e.Signal, e.Code = sig, 128+int(sig)
	}
	return e
}

// timedVerdict is a verdict and when it was reached.
type timedVerdict struct {
	rules.Verdict
	at time.Time
}

// replay drives a detector through the events, delivering the timer events
// the detector asks for whenever its deadline falls before the next event.
func replay(d *rules.Detector, evs []rules.Event) []timedVerdict {
	var history []timedVerdict
	handle := func(ev rules.Event) {
		if v, changed := d.Handle(ev); changed {
			history = append(history, timedVerdict{v, ev.Time})
		}
	}
	for _, ev := range evs {
		for {
			deadline, ok := d.Deadline()
			if !ok || deadline.After(ev.Time) {
				break
			}
			handle(rules.Event{Kind: rules.EventTimer, Time: deadline})
		}
		handle(ev)
	}
	return history
}

// presetFor picks the preset of a capture the way the engine would: Detect
// on its command, else the preset named like the capture's folder. The
// capture keeps the command, not the project: a preset that refines the
// detected one (SvelteKit's `vite dev`) is told apart by a package.json
// the capture does not have, so its folder name stands for it.
func presetFor(t *testing.T, c capture.Capture) *Preset {
	t.Helper()
	if d, ok := Detect(c.Command, nil, t.TempDir()); ok {
		if p, ok := Lookup(c.Server); ok && p.Detect.Refines == d.Preset.Name {
			return p
		}
		assert.Equal(t, c.Server, d.Preset.Name, "%s: %s", c.Command, d.Reason)
		return d.Preset
	}
	p, ok := Lookup(c.Server)
	require.True(t, ok, "no preset detected for %q nor named %q", c.Command, c.Server)
	return p
}

// detectorFor builds the detector the engine would (compose.DetectionOf):
// the preset's patterns and, with no port, its ways to tell without one.
func detectorFor(t *testing.T, p *Preset, port int, t0 time.Time) *rules.Detector {
	t.Helper()
	ready, err := rules.CompilePatterns(p.ReadyPatterns)
	require.NoError(t, err)
	errs, err := rules.CompilePatterns(p.ErrorPatterns)
	require.NoError(t, err)
	notReady, err := rules.CompilePatterns(p.NotReadyPatterns)
	require.NoError(t, err)
	spec := &rules.Spec{ReadyPatterns: ready, ErrorPatterns: errs, NotReadyPatterns: notReady, Port: port,
		ReadyTimeout: p.ReadyTimeout, PortInUse: func(int) bool { return false },
		ReadyLinePort: p.ListensOnItsLinePort(), ReadyLineListens: p.ReadyLineBeforeListen}
	if port == 0 { // as the engine does (compose.DetectionOf)
		spec.StabilityDelay = p.StabilityDelay
	}
	spec.ReloadPatterns, err = rules.CompilePatterns(p.ReloadPatterns)
	require.NoError(t, err)
	spec.RecoveredPatterns, err = rules.CompilePatterns(p.RecoveredPatterns)
	require.NoError(t, err)
	spec.ReadyOnListen = p.ReadyWhenListening && (port == 0 || len(p.ReadyPatterns) > 0)
	if port == 0 {
		spec.AssumeReadyAfter = p.AssumeReadyAfter
	}
	return rules.NewDetector(spec, 1, t0)
}

// TestCaptureVerdicts replays every capture through the preset the engine
// would pick and checks the verdict against what really happened: ready
// (on the line a person calls ready) on healthy runs, failed and never
// ready on failing ones, and never failed before the stop on runs that
// only look hung.
func TestCaptureVerdicts(t *testing.T) {
	dirs := findCaptures(t, ownCaptures)
	require.NotEmpty(t, dirs, "no captures in %s", ownCaptures)
	for _, dir := range findCaptures(t, rulesCaptures) {
		if _, ok := Lookup(filepath.Base(filepath.Dir(dir))); ok {
			dirs = append(dirs, dir)
		}
	}
	for _, dir := range dirs {
		name := filepath.Join(filepath.Base(filepath.Dir(dir)), filepath.Base(dir))
		if strings.HasPrefix(dir, rulesCaptures) {
			name = "rules/" + name
		}
		t.Run(name, func(t *testing.T) {
			c := loadCapture(t, dir)
			p := presetFor(t, c)
			port := c.Meta.Port
			if c.Meta.Expect == "ready" && c.Meta.PortOpenT == nil || occupiedBeforeStart(t, dir) {
				// Another program held it (the server moved on, or the run
				// is a port-in-use run): procs would have refused to start
				// with that port configured, and a configured port must be
				// the process's own to be ready.
				port = 0
			}
			checkVerdicts(t, c, p, port)
			if port != 0 && (p.ReadyWhenListening || c.Meta.Expect == "ready") {
				// The same run with no port in procs.yaml, as most are
				// written: listening, or the ready line (once the port it
				// names, if any, is open), decides.
				t.Run("no-port", func(t *testing.T) { checkVerdicts(t, c, p, 0) })
			}
		})
	}
}

// occupiedBeforeStart says the recorder held the capture's port before the
// program started (a port-in-use run: record -occupy).
func occupiedBeforeStart(t *testing.T, dir string) bool {
	t.Helper()
	cmd, err := os.ReadFile(filepath.Join(dir, "cmd.txt"))
	require.NoError(t, err)
	return strings.Contains(string(cmd), "\n# before start: the recorder listens on ")
}

// recorderPortSlack is how late a capture's port_open_t may be: the
// recorder tries to connect every 10 ms (recorder's probe), and a
// connection takes some of a millisecond more.
const recorderPortSlack = 12 * time.Millisecond

// checkVerdicts replays c through preset p, with port configured (0: none).
func checkVerdicts(t *testing.T, c capture.Capture, p *Preset, port int) {
	t.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := detectorFor(t, p, port, t0)
	history := replay(d, captureEvents(c, t0))
	require.NotEmpty(t, history, "no verdict at all")
	// The first verdict other than starting decides; a worker may first
	// be starting "not-ready" while its broker is down.
	decided := history[0]
	for _, v := range history {
		if v.State != rules.StateStarting {
			decided = v
			break
		}
	}
	switch c.Meta.Expect {
	case "ready":
		assert.Equal(t, rules.StateReady, decided.State, "first verdict: %+v", decided.Verdict)
		switch {
		case c.Meta.ReadyLine != nil && decided.Line == "" && portOpenedFirst(c):
			// Ready as soon as it is true: the port a client connects to
			// was open before the line said so, and decided at once.
			assert.Contains(t, decided.Message, "port", "ready on its port, before its line")
		case c.Meta.ReadyLine != nil:
			assert.Equal(t, *c.Meta.ReadyLine, decided.Line, "the deciding line")
		case port != 0:
			assert.Contains(t, decided.Message, fmt.Sprintf("port %d open", port), "no ready line: the port decides")
		default:
			assert.Contains(t, decided.Message, "listening on port", "no ready line, no port: listening decides")
		}
		if c.Meta.SignalAt != nil {
			assert.True(t, decided.at.Before(t0.Add(seconds(*c.Meta.SignalAt))), "ready before the stop")
		}
		if c.Meta.PortOpenT != nil && !occupiedBeforeStart(t, c.Dir) {
			// Ready is a promise that a client can connect: never before
			// the server listened on its port (which the recorder saw
			// within recorderPortSlack).
			assert.False(t, decided.at.Before(t0.Add(seconds(*c.Meta.PortOpenT)-recorderPortSlack)),
				"ready at %.3fs (%s), before it listened on port %d at %.3fs",
				decided.at.Sub(t0).Seconds(), decided.Message, c.Meta.Port, *c.Meta.PortOpenT)
		}
	case "error":
		assert.NotContains(t, states(history), rules.StateReady, "a failing run is never ready: %+v", history)
		assert.Equal(t, rules.StateFailed, decided.State, "first verdict: %+v", decided.Verdict)
		if c.Meta.SignalAt == nil {
			assert.Equal(t, rules.StateFailed, d.Verdict().State)
		}
	case "not-ready":
		// A worker that cannot reach its broker: never ready, and saying
		// why while it waits.
		assert.NotContains(t, states(history), rules.StateReady, "%+v", history)
		assert.Contains(t, reasons(history), "not-ready", "%+v", history)
	case "hang":
		for _, v := range history {
			assert.NotEqual(t, rules.StateFailed, v.State, "a run that only looks hung is not failed: %+v", v.Verdict)
		}
	default:
		t.Fatalf("unknown expect %q", c.Meta.Expect)
	}
}

// portOpenedFirst says the capture's server listened before its ready line.
func portOpenedFirst(c capture.Capture) bool {
	return c.Meta.PortOpenT != nil && c.Meta.ReadyLineT != nil && *c.Meta.PortOpenT < *c.Meta.ReadyLineT
}

func reasons(history []timedVerdict) []string {
	out := make([]string, len(history))
	for i, v := range history {
		out[i] = string(v.Reason)
	}
	return out
}

func states(history []timedVerdict) []rules.State {
	out := make([]rules.State, len(history))
	for i, v := range history {
		out[i] = v.State
	}
	return out
}

// TestCaptureFiles checks our captures are complete and small.
func TestCaptureFiles(t *testing.T) {
	for _, dir := range findCaptures(t, ownCaptures) {
		t.Run(dir, func(t *testing.T) {
			for _, f := range []string{"chunks.jsonl", "meta.json", "cmd.txt", "output.raw"} {
				info, err := os.Stat(filepath.Join(dir, f))
				require.NoError(t, err)
				assert.LessOrEqual(t, info.Size(), int64(96<<10), "%s is too big", f)
			}
			c := loadCapture(t, dir)
			assert.Contains(t, []string{"ready", "error", "hang", "not-ready"}, c.Meta.Expect)
			assert.NotEmpty(t, c.Command)
			if c.Meta.Expect == "error" {
				assert.True(t, c.Meta.ExitCode != nil || c.Meta.ExitSignal != nil, "a failing run records its exit")
			}
			_, ok := Lookup(c.Server)
			assert.True(t, ok, "captures/<preset>/<scenario>: no preset %q", c.Server)
			assert.True(t, slices.IsSortedFunc(c.Chunks, func(a, b capture.Chunk) int {
				return int(a.T*1000) - int(b.T*1000)
			}), "chunks in time order")
		})
	}
}

// TestStabilityDelaysHaveEvidence walks every preset: one with a stability
// delay names the recorded runs that need it, and each of them is judged
// wrongly without the delay (ready, then failed) and rightly with it (see
// TestCaptureVerdicts). A delay no recorded run needs is a wait on every
// restart for nothing, so none is allowed.
func TestStabilityDelaysHaveEvidence(t *testing.T) {
	for _, p := range All() {
		t.Run(p.Name, func(t *testing.T) {
			if p.StabilityDelay == 0 {
				assert.Empty(t, p.StabilityEvidence, "evidence for no delay")
				return
			}
			require.NotEmpty(t, p.StabilityEvidence, "a stability delay of %s that no recorded run shows is needed", p.StabilityDelay)
			for _, name := range p.StabilityEvidence {
				dir := filepath.Join(ownCaptures, filepath.FromSlash(name))
				if rest, ok := strings.CutPrefix(name, "rules/"); ok {
					dir = filepath.Join(rulesCaptures, filepath.FromSlash(rest))
				}
				c := loadCapture(t, dir)
				undelayed := *p
				undelayed.StabilityDelay = 0
				t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
				// With no port configured: with one, the port check decides.
				history := replay(detectorFor(t, &undelayed, 0, t0), captureEvents(c, t0))
				assert.Contains(t, states(history), rules.StateReady, "%s: judged rightly with no delay: %+v", name, history)
				assert.NotEqual(t, "ready", c.Meta.Expect, "%s: a run that failed", name)
			}
		})
	}
}

// TestNodeWatchersSayTheAppEnded: a watcher that keeps running after the
// app ended (node --watch, nodemon) says so; the node preset fails the run
// there, never ready on the app's listening line printed before it.
// nodemon's lines are those nodemon 3.1.14 printed here, colours and all.
func TestNodeWatchersSayTheAppEnded(t *testing.T) {
	p, ok := Lookup("express")
	require.True(t, ok)
	for _, ended := range []string{
		"Completed running 'app.js'",
		"Failed running 'app.js'",
		"\x1b[32m[nodemon] clean exit - waiting for changes before restart\x1b[39m",
		"\x1b[31m[nodemon] app crashed - waiting for file changes before starting...\x1b[39m",
	} {
		t0 := time.Now()
		d := detectorFor(t, p, 0, t0)
		var evs []rules.Event
		for i, line := range []string{"Example app listening on port 3010", ended} {
			raw := []byte(line)
			evs = append(evs, rules.Event{Kind: rules.EventLine, Time: t0.Add(time.Duration(250+10*i) * time.Millisecond),
				Line: rules.Line{Raw: raw, Text: rules.StripText(raw)}})
		}
		history := replay(d, append(evs, rules.Event{Kind: rules.EventTimer, Time: t0.Add(5 * time.Second)}))
		assert.NotContains(t, states(history), rules.StateReady, "%q", ended)
		assert.Equal(t, rules.StateFailed, d.Verdict().State, "%q", ended)
	}
}

// TestExpressBindFailedIsNeverReady: Express 5 calls listen's callback
// even when the bind failed, so an app whose port another program holds
// prints "Example app listening on port N" all the same, then ends (node
// app.js exits 0, node --watch says "Completed running 'app.js'") or, with
// a timer of its own, runs on serving nothing. Its line names a port its
// tree does not listen on: never ready, nor assumed ready. The same app on
// a free port is ready on that line once its tree listens there, no later
// than before (its line plus the 100 ms the preset used to hold), and an
// end its watcher reports later leaves it unhealthy, not ready.
func TestExpressBindFailedIsNeverReady(t *testing.T) {
	p, ok := Lookup("express")
	require.True(t, ok)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range []string{"port-in-use", "watch-port-in-use", "npm-port-in-use", "npm-watch-port-in-use", "npm-watch-port-in-use-timer"} {
		t.Run(name, func(t *testing.T) {
			c := loadCapture(t, filepath.Join(ownCaptures, "express", name))
			history := replay(detectorFor(t, p, 0, t0), captureEvents(c, t0))
			require.NotEmpty(t, history)
			assert.NotContains(t, states(history), rules.StateReady, "%+v", history)
			assert.Equal(t, rules.StateFailed, history[0].State, "%+v", history[0])
		})
	}
	for _, name := range []string{"start", "watch-start", "npm-start", "npm-watch-start"} {
		t.Run(name, func(t *testing.T) {
			c := loadCapture(t, filepath.Join(ownCaptures, "express", name))
			d := detectorFor(t, p, 0, t0)
			evs := captureEvents(c, t0)
			history := replay(d, evs[:len(evs)-1]) // up to the stop
			require.Equal(t, []rules.State{rules.StateReady}, states(history), "%+v", history)
			if portOpenedFirst(c) { // ready as its tree listens, before its line
				assert.Contains(t, history[0].Message, fmt.Sprintf("listening on port %d", c.Meta.Port))
			} else {
				assert.Equal(t, *c.Meta.ReadyLine, history[0].Line)
				assert.Contains(t, history[0].Message, fmt.Sprintf("port %d open", c.Meta.Port))
			}
			before := t0.Add(seconds(*c.Meta.ReadyLineT) + 100*time.Millisecond)
			assert.False(t, history[0].at.After(before), "ready at %s, before at %s",
				history[0].at.Sub(t0), before.Sub(t0))

			ended := evs[len(evs)-2].Time.Add(10 * time.Millisecond)
			d.Handle(rules.Event{Kind: rules.EventLine, Time: ended, Line: rules.Line{Text: "Completed running 'app.js'"}})
			assert.Equal(t, rules.StateUnhealthy, d.Verdict().State, "%+v", d.Verdict())
		})
	}
}
