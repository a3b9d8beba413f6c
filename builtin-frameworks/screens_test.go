package frameworks

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// Screens are real runs of interactive programs (agent CLIs, REPLs,
// shells, psql) on a PTY, recorded here by
// internal/recorder/capture-screens.sh: the recorder answered the terminal's
// queries and typed what a person would, and the typed input is in the
// capture as "input" chunks.
const ownScreens = "testdata/screens"

// agentSpec builds the detection of an interactive preset, as the engine
// does for a process using it with no settings of its own.
func agentSpec(t *testing.T, p *Preset) *rules.Spec {
	t.Helper()
	compile := func(srcs []string) []rules.Pattern {
		patterns, err := rules.CompilePatterns(srcs)
		require.NoError(t, err)
		return patterns
	}
	return &rules.Spec{
		Interactive:      p.Interactive,
		ReadyPatterns:    compile(p.ReadyPatterns),
		ErrorPatterns:    compile(p.ErrorPatterns),
		NotReadyPatterns: compile(p.NotReadyPatterns),
		ReadyTimeout:     p.ReadyTimeout,
		Agent: rules.AgentSpec{
			Busy:           compile(p.BusyPatterns),
			Question:       compile(p.QuestionPatterns),
			Permission:     compile(p.PermissionPatterns),
			Recoverable:    compile(p.RecoverablePatterns),
			AnnouncesState: p.AnnouncesState,
		},
	}
}

type screenChunk struct {
	T      float64 `json:"t"`
	Stream string  `json:"stream"`
	Data   []byte  `json:"data_b64"`
}

var signals = map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM, "SIGKILL": syscall.SIGKILL}

type screenMeta struct {
	ExitCode   *int    `json:"exit_code"`
	ExitSignal *string `json:"exit_signal"`
	ExitT      float64 `json:"exit_t"`
}

// replayScreens feeds a recorded run to a screen and a detector the way the
// run loop does: each output chunk drawn, then classified; each Enter typed
// marked as input; then the recorded exit. It returns the states in order,
// each with the screen row that decided it, without repeats.
func replayScreens(t *testing.T, dir string, spec *rules.Spec) []string {
	t.Helper()
	var meta screenMeta
	data, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &meta))
	f, err := os.Open(filepath.Join(dir, "chunks.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	t0 := time.Unix(1_700_000_000, 0)
	screen := rules.NewScreen(120, 40)
	det := rules.NewDetector(spec, 1, t0)
	det.AttachScreen(screen)
	var states []string
	screenNow := func() string {
		x, y, vis := screen.Cursor()
		return fmt.Sprintf("cursor %d,%d visible=%v\n%s", x, y, vis, screen.Text())
	}
	note := func(v rules.Verdict) {
		s := string(v.State)
		if v.Recoverable {
			s += " (recoverable)"
		}
		if v.Reason == rules.ReasonNotReady || v.Reason == rules.ReasonUserExit {
			s += " (" + string(v.Reason) + ")"
		}
		if len(states) == 0 || states[len(states)-1] != s {
			states = append(states, s)
			if os.Getenv("PROCS_SCREEN_TRACE") != "" {
				t.Logf("%s  %q", s, v.Message)
				if os.Getenv("PROCS_SCREEN_TRACE") == "full" {
					t.Logf("screen:\n%s", screenNow())
				}
			}
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	var typedAt time.Time
	for sc.Scan() {
		var c screenChunk
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c))
		at := t0.Add(time.Duration(c.T * float64(time.Second)))
		if c.Stream != "input" && !at.After(typedAt) {
			// Times are recorded in milliseconds: output recorded after
			// input was read after it was written, as the run loop sees.
			at = typedAt.Add(time.Microsecond)
		}
		// The timers the detector asked for fire before the next chunk.
		for deadline, ok := det.Deadline(); ok && !deadline.After(at); deadline, ok = det.Deadline() {
			v, _ := det.Handle(rules.Event{Kind: rules.EventTimer, Time: deadline})
			note(v)
		}
		if c.Stream == "input" {
			typedAt = at
			kind := rules.EventKeys
			if last := c.Data[len(c.Data)-1]; last == '\r' {
				kind = rules.EventInput
			}
			det.Handle(rules.Event{Kind: kind, Time: at, Input: string(c.Data)})
			if kind == rules.EventInput {
				det.Handle(rules.Event{Kind: rules.EventInputWritten, Time: at})
			}
			continue
		}
		_, _ = screen.Write(c.Data)
		v, _ := det.Handle(rules.Event{Kind: rules.EventScreen, Time: at})
		note(v)
	}
	require.NoError(t, sc.Err())
	exit := rules.Exit{Code: -1}
	switch {
	case meta.ExitCode != nil:
		exit.Code = *meta.ExitCode
	case meta.ExitSignal != nil:
		// The recorder's stop signal after its timeout.
		sig := signals[*meta.ExitSignal]
		exit.Signal, exit.Code = sig, 128+int(sig)
	}
	v, _ := det.Handle(rules.Event{Kind: rules.EventExit, Time: t0.Add(time.Duration(meta.ExitT * float64(time.Second))), Exit: exit})
	note(v)
	return states
}

// TestAgentPresetsOnRealScreens replays every recorded interactive run through its
// preset and checks the states a person watching would name.
func TestAgentPresetsOnRealScreens(t *testing.T) {
	want := map[string][]string{
		// Theme picker, security notes and folder trust wait for a person
		// (awaiting-input); a message with no network is busy, then
		// retried (recoverable, held while it retries); /exit is sent
		// (busy until it answers) and is the user leaving.
		"claude-code/first-run": {"starting", "awaiting-input (not-ready)", "ready", "busy", "failed (recoverable)", "busy", "stopped (user-exit)"},
		// 2.1.330: the folder trust dialog defaults to "No, exit" (Down,
		// then Enter, picks "Yes, I trust this folder"); its prompt is "❯"
		// and a no-break space; the retries say "retrying in 8s".
		// Between two first-run screens it is busy for a moment (nothing
		// asks, nothing is a prompt).
		"claude-code/first-run-2.1.330": {"starting", "awaiting-input (not-ready)", "busy", "awaiting-input (not-ready)", "busy", "ready", "busy", "failed (recoverable)", "busy", "stopped (user-exit)"},
		// 2.1.332 draws the same screens.
		"claude-code/first-run-2.1.332": {"starting", "awaiting-input (not-ready)", "busy", "awaiting-input (not-ready)", "busy", "ready", "busy", "failed (recoverable)", "busy", "stopped (user-exit)"},
		// Without credentials the OAuth preflight fails, and it exits 1.
		"claude-code/offline": {"starting", "failed"},
		// The sign-in choice waits for a person; the recorder then stops it (SIGINT).
		"codex/sign-in": {"starting", "awaiting-input (not-ready)", "stopped (user-exit)"},
		// Prompt, a message reconnecting without network (busy from Enter
		// until the spinner: never ready before it), Ctrl-C's "Task is
		// still running" choice (a question), back at the prompt. Codex
		// says when it works and when it is idle (OSC 7501): between two
		// reconnects the turn is still running, busy, not ready.
		"codex/prompt": {"starting", "ready", "busy", "failed (recoverable)", "busy", "awaiting-input", "failed (recoverable)", "ready", "stopped (user-exit)"},
		// 0.171, the prompt typed into once Codex says it is idle (its
		// footer then offers "← for agents"): it says working once on its
		// own first; then as 0.169, stopped by the recorder at the end.
		"codex/prompt-0.171.0": {"starting", "ready", "busy", "ready", "busy", "failed (recoverable)", "busy", "awaiting-input", "failed (recoverable)", "ready", "stopped (user-exit)"},
		// 0.171, typed into at once: its prompt is drawn at 0.2 s but it
		// takes input only when it first says idle (12.6 s here, offline),
		// and the Enter typed before is lost ("hello" stays in its box):
		// starting until then, not ready.
		"codex/early-enter-0.171.0": {"starting", "ready", "busy", "ready", "busy", "stopped (user-exit)"},
		// Prompt, a message: busy until OpenCode draws its spinner (its
		// prompt never leaves the screen), then retrying without network:
		// recoverable, without flapping as the banner is redrawn; /exit.
		"opencode/prompt": {"starting", "ready", "busy", "failed (recoverable)", "busy", "stopped (user-exit)"},
		// Folder trust, then (after its restart) the sign-in choice.
		"gemini-cli/first-run": {"starting", "awaiting-input (not-ready)", "busy", "awaiting-input (not-ready)", "stopped (user-exit)"},
		// python3 (3.11, Debian): each command busy from Enter until ">>>"
		// (time.sleep(3) among them), unless the answer came with the
		// echo of Enter; input("name? ") waits for an answer once its
		// output rests (questionQuiet), though its Enter came less than
		// answerSettle before; a for loop's "..." is a prompt; a
		// traceback is an answer, not a failure; exit() is the user
		// leaving.
		"python-repl/session": {"starting", "ready", "busy", "ready", "busy", "ready", "busy", "awaiting-input", "busy", "ready", "busy", "ready", "busy", "stopped (user-exit)"},
		// node (20, Debian): keys typed without Enter stay at the prompt
		// (">", "... " with a line's leading space), though Node echoes
		// them a key at a time and draws a preview of the result below
		// them; each command is busy from Enter until its prompt, an
		// uncaught error is an answer, and .exit is the user leaving.
		"node-repl/session": {"starting", "ready", "busy", "ready", "busy", "ready", "busy", "ready", "busy", "ready", "busy", "ready", "busy", "stopped (user-exit)"},
		// psql 15 against postgres 15: select pg_sleep(3) busy; "select 1 +"
		// answered by the continuation prompt (postgres-#); an ERROR is an
		// answer; inside a transaction the prompt is postgres=*#; \q is
		// the user leaving.
		"psql/session": {"starting", "ready", "busy", "ready", "busy", "ready", "busy", "ready", "busy", "ready", "busy", "ready", "busy", "ready", "busy", "stopped (user-exit)"},
		// bash 5.2 (Debian's prompt, root@vm:~#), dash and zsh 5.9 (vm#,
		// its line editor): sleep 3 busy; read -p "name? " (zsh: read
		// "n?name? ") waits for an answer; ls of a missing file is an
		// answer, not a failure; a bare exit leaves with ls's status (2),
		// and is still the user leaving.
		"interactive-shell/bash": {"ready", "busy", "ready", "busy", "awaiting-input", "busy", "ready", "busy", "ready", "busy", "stopped (user-exit)"},
		"interactive-shell/dash": {"ready", "busy", "ready", "busy", "awaiting-input", "busy", "ready", "busy", "ready", "busy", "stopped (user-exit)"},
		"interactive-shell/zsh":  {"starting", "ready", "busy", "ready", "busy", "awaiting-input", "busy", "ready", "busy", "ready", "busy", "stopped (user-exit)"},
	}
	dirs, err := filepath.Glob(filepath.Join(ownScreens, "*", "*", "chunks.jsonl"))
	require.NoError(t, err)
	var seen []string
	for _, file := range dirs {
		dir := filepath.Dir(file)
		name := filepath.Base(filepath.Dir(dir)) + "/" + filepath.Base(dir)
		seen = append(seen, name)
		t.Run(name, func(t *testing.T) {
			p, ok := Lookup(filepath.Base(filepath.Dir(dir)))
			require.True(t, ok, "screens are stored under the preset's name")
			require.True(t, p.Interactive)
			assert.Equal(t, want[name], replayScreens(t, dir, agentSpec(t, p)))
		})
	}
	for name := range want {
		assert.True(t, slices.Contains(seen, name), "no recording for %s", name)
	}
}
