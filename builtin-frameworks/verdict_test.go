package frameworks

import (
	"bufio"
	"encoding/json"
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

	"github.com/procsdev/procs/rules"
)

// Captures are real runs of real programs: ours in testdata/captures
// (recorded by internal/recorder/capture-all.sh) and the shared ones,
// checked out beside the repository.
const (
	ownCaptures    = "testdata/captures"
	sharedCaptures = "../../shared/fixtures"
)

type captureMeta struct {
	Port       int      `json:"port"`
	Expect     string   `json:"expect"`
	ReadyLine  *string  `json:"ready_line"`
	PortOpenT  *float64 `json:"port_open_t"`
	ExitCode   *int     `json:"exit_code"`
	ExitSignal *string  `json:"exit_signal"`
	ExitT      *float64 `json:"exit_t"`
	SignalAt   *float64 `json:"signal_at"`
}

type captureChunk struct {
	T      float64 `json:"t"`
	Stream string  `json:"stream"`
	Data   []byte  `json:"data_b64"`
}

type capture struct {
	dir     string
	server  string // the folder above the scenario: the preset name
	command string // the last line of cmd.txt
	meta    captureMeta
	chunks  []captureChunk
}

// findCaptures lists <root>/<server>/<scenario>/ folders with a meta.json.
func findCaptures(t *testing.T, root string) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(root, "*", "*", "meta.json"))
	require.NoError(t, err)
	for i, d := range dirs {
		dirs[i] = filepath.Dir(d)
	}
	sort.Strings(dirs)
	return dirs
}

func loadCapture(t *testing.T, dir string) capture {
	t.Helper()
	c := capture{dir: dir, server: filepath.Base(filepath.Dir(dir))}
	meta, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(meta, &c.meta))
	cmd, err := os.ReadFile(filepath.Join(dir, "cmd.txt"))
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(cmd)), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			c.command = line
		}
	}
	f, err := os.Open(filepath.Join(dir, "chunks.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ch captureChunk
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ch))
		c.chunks = append(c.chunks, ch)
	}
	require.NoError(t, sc.Err())
	return c
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

var streams = map[string]rules.Stream{"stdout": rules.StreamStdout, "stderr": rules.StreamStderr, "pty": rules.StreamPTY}

// events turns a capture into the events the engine would have seen, in
// time order: its lines (split per stream, as the engine reads them), the
// port opening when it really did, and the recorded exit.
func (c capture) events(t0 time.Time) []rules.Event {
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
	for _, ch := range c.chunks {
		now = t0.Add(seconds(ch.T))
		_, _ = splitters[ch.Stream].Write(ch.Data)
	}
	for _, name := range []string{"stdout", "stderr", "pty"} {
		splitters[name].Flush()
	}
	if c.meta.PortOpenT != nil && c.meta.Port != 0 {
		evs = append(evs, rules.Event{Kind: rules.EventPorts, Time: t0.Add(seconds(*c.meta.PortOpenT)), Ports: []int{c.meta.Port}})
	}
	if c.meta.ExitT != nil {
		evs = append(evs, rules.Event{Kind: rules.EventExit, Time: t0.Add(seconds(*c.meta.ExitT)), Exit: c.exit()})
	}
	// Lines at EOF were flushed at the last chunk's time; the exit comes
	// after them even when recorded in the same millisecond.
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].Time.Before(evs[j].Time) })
	return evs
}

// exit is the recorded end; a signal the recorder sent is a stop procs
// would have requested.
func (c capture) exit() rules.Exit {
	e := rules.Exit{Requested: c.meta.SignalAt != nil}
	if c.meta.ExitCode != nil {
		e.Code = *c.meta.ExitCode
	}
	if c.meta.ExitSignal != nil {
		sig := map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM,
			"SIGKILL": syscall.SIGKILL, "SIGQUIT": syscall.SIGQUIT, "SIGHUP": syscall.SIGHUP}[*c.meta.ExitSignal]
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
func presetFor(t *testing.T, c capture) *Preset {
	t.Helper()
	if d, ok := Detect(c.command, nil, t.TempDir()); ok {
		if p, ok := Lookup(c.server); ok && p.Detect.Refines == d.Preset.Name {
			return p
		}
		assert.Equal(t, c.server, d.Preset.Name, "%s: %s", c.command, d.Reason)
		return d.Preset
	}
	p, ok := Lookup(c.server)
	require.True(t, ok, "no preset detected for %q nor named %q", c.command, c.server)
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
		ReadyTimeout: p.ReadyTimeout, StabilityDelay: p.StabilityDelay, PortInUse: func(int) bool { return false }}
	if port == 0 {
		spec.ReadyOnListen, spec.AssumeReadyAfter = p.ReadyWhenListening, p.AssumeReadyAfter
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
	if _, err := os.Stat(sharedCaptures); err == nil {
		dirs = append(dirs, findCaptures(t, sharedCaptures)...)
	} else {
		t.Logf("no shared captures at %s", sharedCaptures)
	}
	for _, dir := range dirs {
		name := filepath.Join(filepath.Base(filepath.Dir(dir)), filepath.Base(dir))
		if strings.HasPrefix(dir, sharedCaptures) {
			name = "shared/" + name
		}
		t.Run(name, func(t *testing.T) {
			c := loadCapture(t, dir)
			p := presetFor(t, c)
			port := c.meta.Port
			if c.meta.Expect == "ready" && c.meta.PortOpenT == nil {
				// Another program held it (the server moved on): procs would
				// have refused to start with that port configured, and a
				// configured port must be the process's own to be ready.
				port = 0
			}
			checkVerdicts(t, c, p, port)
			if p.ReadyWhenListening {
				// The same run with no port in procs.yaml: listening decides.
				t.Run("no-port", func(t *testing.T) { checkVerdicts(t, c, p, 0) })
			}
		})
	}
}

// checkVerdicts replays c through preset p, with port configured (0: none).
func checkVerdicts(t *testing.T, c capture, p *Preset, port int) {
	t.Helper()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	d := detectorFor(t, p, port, t0)
	history := replay(d, c.events(t0))
	require.NotEmpty(t, history, "no verdict at all")
	decided := history[0]
	switch c.meta.Expect {
	case "ready":
		assert.Equal(t, rules.StateReady, decided.State, "first verdict: %+v", decided.Verdict)
		switch {
		case c.meta.ReadyLine != nil:
			assert.Equal(t, *c.meta.ReadyLine, decided.Line, "the deciding line")
		case port != 0:
			assert.Contains(t, decided.Message, fmt.Sprintf("port %d open", port), "no ready line: the port decides")
		default:
			assert.Contains(t, decided.Message, "listening on port", "no ready line, no port: listening decides")
		}
		if c.meta.SignalAt != nil {
			assert.True(t, decided.at.Before(t0.Add(seconds(*c.meta.SignalAt))), "ready before the stop")
		}
	case "error":
		assert.NotContains(t, states(history), rules.StateReady, "a failing run is never ready: %+v", history)
		assert.Equal(t, rules.StateFailed, decided.State, "first verdict: %+v", decided.Verdict)
		if c.meta.SignalAt == nil {
			assert.Equal(t, rules.StateFailed, d.Verdict().State)
		}
	case "hang":
		for _, v := range history {
			assert.NotEqual(t, rules.StateFailed, v.State, "a run that only looks hung is not failed: %+v", v.Verdict)
		}
	default:
		t.Fatalf("unknown expect %q", c.meta.Expect)
	}
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
			assert.Contains(t, []string{"ready", "error", "hang"}, c.meta.Expect)
			assert.NotEmpty(t, c.command)
			if c.meta.Expect == "error" {
				assert.True(t, c.meta.ExitCode != nil || c.meta.ExitSignal != nil, "a failing run records its exit")
			}
			_, ok := Lookup(c.server)
			assert.True(t, ok, "captures/<preset>/<scenario>: no preset %q", c.server)
			assert.True(t, slices.IsSortedFunc(c.chunks, func(a, b captureChunk) int {
				return int(a.T*1000) - int(b.T*1000)
			}), "chunks in time order")
		})
	}
}
