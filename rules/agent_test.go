package rules

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// agentSpec is a small interactive spec in the style of the agent presets.
func agentSpec(t *testing.T) *Spec {
	return &Spec{
		Interactive:      true,
		ReadyPatterns:    mustPatterns(t, `^> `, `^>$`),
		ErrorPatterns:    mustPatterns(t, `API Error`),
		NotReadyPatterns: mustPatterns(t, `Choose the text style`),
		ReadyTimeout:     time.Minute,
		Agent: AgentSpec{
			Busy:        mustPatterns(t, `esc to interrupt`),
			Question:    mustPatterns(t, `Enter to select`),
			Permission:  mustPatterns(t, `Do you want to proceed\?`),
			Recoverable: mustPatterns(t, `rate limit.*retrying`),
		},
	}
}

// agentRun is a detector with a screen, driven as the run loop drives it.
type agentRun struct {
	t      *testing.T
	d      *Detector
	screen *Screen
	now    time.Time
}

func newAgentRun(t *testing.T, spec *Spec) *agentRun {
	r := &agentRun{t: t, d: NewDetector(spec, 1, t0), screen: NewScreen(60, 10), now: t0}
	r.d.AttachScreen(r.screen)
	return r
}

// draw writes output to the screen and reports the screen event.
func (r *agentRun) draw(out string) Verdict {
	r.now = r.now.Add(time.Millisecond)
	_, _ = r.screen.Write([]byte(out))
	v, _ := r.d.Handle(Event{Kind: EventScreen, Time: r.now})
	return v
}

func (r *agentRun) event(kind EventKind) Verdict {
	r.now = r.now.Add(time.Millisecond)
	v, _ := r.d.Handle(Event{Kind: kind, Time: r.now})
	return v
}

func TestAgentStatesFromScreen(t *testing.T) {
	r := newAgentRun(t, agentSpec(t))
	const clear = "\x1b[H\x1b[2J"
	v := r.draw("Loading...")
	assert.Equal(t, StateStarting, v.State, "nothing yet")

	v = r.draw(clear + "Choose the text style that looks best\r\n 1. Dark\r\n 2. Light\r\nEnter to select")
	assert.Equal(t, StateAwaitingInput, v.State, "a first-run dialog waits for a person")
	assert.Equal(t, ReasonNotReady, v.Reason, "a first-run dialog outranks the question it looks like")

	v = r.draw(clear + "Welcome\r\n\r\n> \r\n? for shortcuts\x1b[3;3H")
	assert.Equal(t, StateReady, v.State)
	assert.Equal(t, "> ", v.Line)
	assert.Equal(t, "idle at prompt \">\"", v.Message)

	v = r.event(EventInput)
	assert.Equal(t, StateBusy, v.State, "Enter sent: the prompt no longer means idle")
	assert.Equal(t, ReasonInput, v.Reason)
	v = r.event(EventInputWritten)
	assert.Equal(t, StateBusy, v.State, "written, not answered yet")

	v = r.draw("\x1b[2;1H✻ Thinking… (esc to interrupt)\x1b[3;3H")
	assert.Equal(t, StateBusy, v.State, "a busy marker vetoes the prompt still drawn below it")
	assert.Equal(t, "✻ Thinking… (esc to interrupt)", v.Line)

	v = r.draw("\x1b[2;1H\x1b[2K\x1b[3;3H")
	assert.Equal(t, StateReady, v.State, "marker gone, prompt at the cursor")

	v = r.draw(clear + "Which approach?\r\n❯ 1. Fast\r\n  2. Safe\r\nEnter to select · Esc to cancel")
	assert.Equal(t, StateAwaitingInput, v.State)

	v = r.draw(clear + "Bash command\r\n  rm -rf build\r\nDo you want to proceed?\r\n❯ 1. Yes\r\n  2. No\r\nEnter to select")
	assert.Equal(t, StateAwaitingPermission, v.State, "permission outranks question")

	v = r.draw(clear + "API Error: rate limit exceeded, retrying in 5s\r\n> ")
	assert.Equal(t, StateFailed, v.State, "an error outranks the prompt")
	assert.True(t, v.Recoverable)
	assert.Equal(t, ReasonRecoverable, v.Reason)

	v = r.draw(clear + "API Error: invalid key\r\n> ")
	assert.Equal(t, StateFailed, v.State)
	assert.False(t, v.Recoverable)

	v = r.draw(clear + "> ")
	assert.Equal(t, StateReady, v.State, "an error on screen is not sticky for interactive programs")

	v = r.draw(clear + "working\r\n")
	assert.Equal(t, StateBusy, v.State, "no prompt after having been up: busy")
	_, ok := r.d.Deadline()
	assert.False(t, ok, "no readiness timeout once up")
}

func TestAgentPromptOnlyAtCursorRow(t *testing.T) {
	r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^>>> `)})
	assert.Equal(t, StateReady, r.draw(">>> ").State)
	assert.Equal(t, StateBusy, r.draw("import time; time.sleep(5)\r\n").State, "old prompts above the cursor do not count")
	assert.Equal(t, StateReady, r.draw(">>> ").State)
	// A program that hides the cursor redraws everything: any row counts.
	assert.Equal(t, StateReady, r.draw("\x1b[?25l\r\n\r\n").State)
}

func TestAgentInputPendingUntilAnswered(t *testing.T) {
	r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^\$ `)})
	require.Equal(t, StateReady, r.draw("$ ").State)
	r.event(EventInput)
	// Output read before the input was written is not an answer to it.
	assert.Equal(t, StateBusy, r.draw("").State)
	assert.Equal(t, StateBusy, r.event(EventInputWritten).State)
	assert.Equal(t, StateReady, r.draw("\r\n$ ").State, "output after the write answers it")
}

func TestAgentFirstRunDialogIsAQuestion(t *testing.T) {
	spec := agentSpec(t)
	spec.ReadyTimeout = time.Second
	r := newAgentRun(t, spec)
	v := r.draw("Choose the text style")
	assert.Equal(t, StateAwaitingInput, v.State)
	assert.Contains(t, v.Message, "Choose the text style")
	_, ok := r.d.Deadline()
	assert.False(t, ok, "no readiness timeout while it waits for a person")
	assert.Equal(t, StateReady, r.draw("\x1b[H\x1b[2J> ").State, "answered: up")
}

func TestAgentRuleSeesScreen(t *testing.T) {
	spec := &Spec{Interactive: true, Rule: mustRule(t, `screen.contains("model: fast") && screen.matches("^> ")`)}
	r := newAgentRun(t, spec)
	assert.Equal(t, StateStarting, r.draw("> ").State)
	assert.Equal(t, StateReady, r.draw("\r\nmodel: fast\x1b[1;3H").State)
}

func TestAgentExitClassification(t *testing.T) {
	for _, tc := range []struct {
		name   string
		exit   Exit
		state  State
		reason Reason
	}{
		{"exit 0 is the user leaving", Exit{Code: 0}, StateStopped, ReasonUserExit},
		{"130 is Ctrl-C", Exit{Code: 130}, StateStopped, ReasonUserExit},
		{"SIGINT", Exit{Code: 130, Signal: syscall.SIGINT}, StateStopped, ReasonUserExit},
		{"crash", Exit{Code: 1}, StateFailed, "crash"},
		{"killed", Exit{Code: 137, Signal: syscall.SIGKILL}, StateFailed, "killed"},
		{"requested", Exit{Code: 143, Requested: true}, StateStopped, "stopped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newAgentRun(t, agentSpec(t))
			r.draw("> ")
			v, changed := r.d.Handle(Event{Kind: EventExit, Time: r.now, Exit: tc.exit})
			assert.True(t, changed)
			assert.Equal(t, tc.state, v.State)
			assert.Equal(t, tc.reason, v.Reason)
		})
	}
}

func TestScreenRuleRegexCheckedAtCompile(t *testing.T) {
	_, err := CompileRule(`screen.matches("(")`)
	var re *RuleError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, 16, re.Column)
	_, err = CompileRule(`screen.contains(1)`)
	assert.Error(t, err, "types are checked")
	_, err = CompileRule(`screen.contains("x") || screen.matches("^y")`)
	assert.NoError(t, err)
}

func TestAgentEchoIsNotAnAnswer(t *testing.T) {
	r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^\$ `)})
	require.Equal(t, StateReady, r.draw("$ ").State)
	r.now = r.now.Add(time.Millisecond)
	r.d.Handle(Event{Kind: EventInput, Time: r.now, Input: "ls -l\r"})
	r.event(EventInputWritten)
	assert.Equal(t, StateBusy, r.draw("l").State, "the echo of the typed text, even in part, is not an answer")
	assert.Equal(t, StateBusy, r.draw("s -l").State)
	assert.Equal(t, StateBusy, r.draw("\r\n").State, "the command runs")
	assert.Equal(t, StateReady, r.draw("total 0\r\n$ ").State, "a fresh prompt is")
}

func TestAgentSameScreenAnswersAfterGrace(t *testing.T) {
	r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^> $`)})
	require.Equal(t, StateReady, r.draw("> ").State)
	r.event(EventInput)
	r.event(EventInputWritten)
	assert.Equal(t, StateBusy, r.draw("\r> ").State, "the same prompt redrawn right after the write is not an answer")
	deadline, ok := r.d.Deadline()
	require.True(t, ok, "a timer is asked for")
	v, _ := r.d.Handle(Event{Kind: EventTimer, Time: deadline})
	assert.Equal(t, StateReady, v.State, "a command that changes nothing on screen is answered after the grace")
	_, ok = r.d.Deadline()
	assert.False(t, ok)
}

// TestQuestionRightAfterEnterWaitsOnlyQuestionQuiet: input("name? ") is
// drawn at once after its Enter. Its question is asked once the output has
// rested questionQuiet, not at the end of answerSettle, which judges a
// prompt redrawn after input: a person answering within two seconds never
// saw procs say it was waiting (the timer asked for was answerSettle's).
func TestQuestionRightAfterEnterWaitsOnlyQuestionQuiet(t *testing.T) {
	r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^>>> $`)})
	require.Equal(t, StateReady, r.draw(">>> ").State)
	r.d.Handle(Event{Kind: EventInput, Time: r.now, Input: "name = input('name? ')\r"})
	r.event(EventInputWritten)
	require.Equal(t, StateBusy, r.draw("name = input('name? ')\r\nname? ").State)
	drawn := r.now
	deadline, ok := r.d.Deadline()
	require.True(t, ok, "a timer is asked for")
	assert.Equal(t, drawn.Add(questionQuiet), deadline)
	v, _ := r.d.Handle(Event{Kind: EventTimer, Time: deadline})
	assert.Equal(t, StateAwaitingInput, v.State, v.Message)
	assert.Contains(t, v.Message, "name?")
}

// TestKeysEchoedAKeyAtATimeStayAtThePrompt: Node's REPL echoes typed keys
// as it reads them, so the row shows only a start of what was typed; and
// "  return 42" typed after "... " first shows as one more space.
func TestKeysEchoedAKeyAtATimeStayAtThePrompt(t *testing.T) {
	r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^> $`, `^(\||\.\.\.) $`)})
	require.Equal(t, StateReady, r.draw("> ").State)
	r.d.Handle(Event{Kind: EventKeys, Time: r.now, Input: "await f()"})
	assert.Equal(t, StateReady, r.draw("a").State, "the first key echoed")
	assert.Equal(t, StateReady, r.draw("wait f()").State, "all of it")
	r.d.Handle(Event{Kind: EventInput, Time: r.now, Input: "\r"})
	r.event(EventInputWritten)
	require.Equal(t, StateReady, r.draw("\r\n... ").State, "the continuation prompt")
	r.d.Handle(Event{Kind: EventKeys, Time: r.now, Input: "  return 42"})
	assert.Equal(t, StateReady, r.draw(" ").State, "a leading space echoed")
}

// TestBareExitIsTheUserLeavingWhateverItsCode: a shell's bare exit returns
// the status of the last command (2 after ls of a missing file): the user
// left, nothing failed. "exit 5" gives a status of its own: a failure. An
// exit that no leave command asked for fails as before.
func TestBareExitIsTheUserLeavingWhateverItsCode(t *testing.T) {
	for _, c := range []struct {
		typed  string
		code   int
		want   State
		reason Reason
	}{
		{"exit", 2, StateStopped, ReasonUserExit},
		{"  logout ", 1, StateStopped, ReasonUserExit},
		{"\\q", 2, StateStopped, ReasonUserExit},
		{"exit 5", 5, StateFailed, ReasonCrash},
		{"sleep 1", 1, StateFailed, ReasonCrash},
	} {
		t.Run(c.typed, func(t *testing.T) {
			r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `[$#] $`)})
			require.Equal(t, StateReady, r.draw("$ ").State)
			r.d.Handle(Event{Kind: EventInput, Time: r.now, Input: c.typed + "\r"})
			r.event(EventInputWritten)
			r.draw(c.typed + "\r\n")
			v, _ := r.d.Handle(Event{Kind: EventExit, Time: r.now, Exit: Exit{Code: c.code}})
			assert.Equal(t, c.want, v.State, v.Message)
			assert.Equal(t, c.reason, v.Reason)
		})
	}
}

// TestTypingAtThePromptIsNotWork: Node's REPL draws a preview of what is
// typed on the row below and moves the cursor back up in a write of its
// own; in between, the cursor rests on the preview. Nothing was submitted:
// the program is still idle at its prompt. Enter is what makes it busy.
func TestTypingAtThePromptIsNotWork(t *testing.T) {
	r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^> $`)})
	require.Equal(t, StateReady, r.draw("> ").State)
	r.d.Handle(Event{Kind: EventKeys, Time: r.now, Input: "f()"})
	assert.Equal(t, StateReady, r.draw("f()").State)
	assert.Equal(t, StateReady, r.draw("\r\n\x1b[33m42\x1b[39m").State, "the cursor on the preview row")
	assert.Equal(t, StateReady, r.draw("\x1b[1A\x1b[6G").State, "back on the prompt row")
	r.d.Handle(Event{Kind: EventInput, Time: r.now, Input: "\r"})
	r.event(EventInputWritten)
	assert.Equal(t, StateBusy, r.draw("\r\n").State, "submitted")
}

// TestAnnouncedState: Codex tells the terminal when it works and when it is
// idle (OSC 7501, ended by ST or BEL, possibly split across reads). With
// AnnouncesState its prompt is not ready before it has said idle (0.171
// loses an Enter typed before), and it is busy while it says working,
// prompt or not.
func TestAnnouncedState(t *testing.T) {
	spec := &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^› `), Agent: AgentSpec{AnnouncesState: true}}
	r := newAgentRun(t, spec)
	v := r.draw("\x1b[H\x1b[2J› Ask Codex to do anything\r\n  ? for shortcuts\x1b[1;3H")
	assert.Equal(t, StateStarting, v.State, "a prompt drawn before it says idle: %s", v.Message)
	assert.Equal(t, StateStarting, r.draw("\x1b]7501;state=id").State, "half the announcement")
	assert.Equal(t, StateReady, r.draw("le:app=codex\x1b\\").State)
	assert.Equal(t, "idle", r.screen.AppState())
	v = r.draw("\x1b]7501;state=working:app=codex\a")
	assert.Equal(t, StateBusy, v.State, "the prompt stays on screen while it works")
	assert.Equal(t, "working, as it says", v.Message)
	assert.Equal(t, StateReady, r.draw("\x1b]7501;state=idle:app=codex\x1b\\").State)

	// Without AnnouncesState the announcement changes nothing.
	plain := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^› `)})
	assert.Equal(t, StateReady, plain.draw("› \x1b]7501;state=working:app=codex\x1b\\").State)
}

// TestAnnouncedAnswer: Codex keeps its prompt on screen after Enter and
// says working seconds later (0.169: 8.4 s). Its prompt, quiet for
// answerSettle, is not the answer: its announcement is, or at last
// announcedAnswerSettle of quiet (input it answers without working).
func TestAnnouncedAnswer(t *testing.T) {
	spec := &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `^› `), Agent: AgentSpec{AnnouncesState: true}}
	submit := func(r *agentRun) {
		require.Equal(t, StateReady, r.draw("› \x1b]7501;state=idle:app=codex\a").State)
		r.d.Handle(Event{Kind: EventInput, Time: r.now, Input: "hello\r"})
		r.event(EventInputWritten)
		require.Equal(t, StateBusy, r.draw("\r› ").State, "the prompt redrawn")
	}
	r := newAgentRun(t, spec)
	submit(r)
	deadline, ok := r.d.Deadline()
	require.True(t, ok)
	assert.Equal(t, r.now.Add(announcedAnswerSettle), deadline, "not answerSettle's")
	r.now = r.now.Add(3 * time.Second)
	v, _ := r.d.Handle(Event{Kind: EventTimer, Time: r.now})
	assert.Equal(t, StateBusy, v.State, "3 s quiet at its prompt, nothing announced")
	assert.Equal(t, StateBusy, r.draw("\x1b]7501;state=working:app=codex\a").State)
	assert.Equal(t, StateReady, r.draw("\x1b]7501;state=idle:app=codex\a").State, "done, as it says")

	quiet := newAgentRun(t, spec)
	submit(quiet)
	deadline, _ = quiet.d.Deadline()
	v, _ = quiet.d.Handle(Event{Kind: EventTimer, Time: deadline})
	assert.Equal(t, StateReady, v.State, "the wait ends: %s", v.Message)
}

func TestAgentTaskCompletes(t *testing.T) {
	spec := agentSpec(t)
	spec.Task = true
	r := newAgentRun(t, spec)
	v, _ := r.d.Handle(Event{Kind: EventExit, Time: r.now, Exit: Exit{Code: 0}})
	assert.Equal(t, StateCompleted, v.State, "an agent run as a task (claude -p) completes on exit 0")
}

// TestShellCtrlCEchoIsNotAQuestion: Ctrl-C of a command in a shell. The
// terminal echoes "^C" at once; the shell draws its prompt once the command
// has died, which under load can take longer than questionQuiet: the "^C"
// the cursor rests after is the echo of the key, not a question.
func TestShellCtrlCEchoIsNotAQuestion(t *testing.T) {
	for _, promptAfter := range []time.Duration{10 * time.Millisecond, time.Second, 3 * time.Second} {
		t.Run(promptAfter.String(), func(t *testing.T) {
			r := newAgentRun(t, &Spec{Interactive: true, ReadyPatterns: mustPatterns(t, `[$#%>] $`)})
			require.Equal(t, StateReady, r.draw("$ ").State)
			send := func(kind EventKind, input string) {
				r.now = r.now.Add(time.Millisecond)
				r.d.Handle(Event{Kind: kind, Time: r.now, Input: input})
			}
			send(EventInput, "sleep 60\r")
			send(EventInputWritten, "")
			require.Equal(t, StateBusy, r.draw("sleep 60\r\n").State)
			send(EventKeys, "\x03")
			require.Equal(t, StateBusy, r.draw("^C").State)
			// The timers the detector asks for, until the prompt comes.
			end := r.now.Add(promptAfter)
			for at, ok := r.d.Deadline(); ok && at.Before(end); at, ok = r.d.Deadline() {
				r.now = at
				v, _ := r.d.Handle(Event{Kind: EventTimer, Time: at})
				require.Equal(t, StateBusy, v.State, "at %s: %s", at.Sub(t0), v.Message)
			}
			r.now = end
			v := r.draw("\r\n$ ")
			assert.Equal(t, StateReady, v.State, v.Message)
		})
	}
}

// TestAgentEnterEchoIsNotAFreshPrompt: the terminal echoes the Enter of
// submitted input at once, moving the cursor to the start of the next row,
// before the agent has read the line. With its prompt footer still on
// screen below (Claude Code's "? for shortcuts"), that cursor is no fresh
// prompt: the agent has not answered until it works or prints one.
func TestAgentEnterEchoIsNotAFreshPrompt(t *testing.T) {
	spec := agentSpec(t)
	spec.ReadyPatterns = mustPatterns(t, `\? for shortcuts`)
	r := newAgentRun(t, spec)
	box := "\x1b[H\x1b[2Jfake agent\x1b[6;1H────\x1b[7;1H❯ \x1b[8;1H────\x1b[9;1H  ? for shortcuts\x1b[7;3H"
	require.Equal(t, StateReady, r.draw(box).State)
	r.now = r.now.Add(time.Millisecond)
	r.d.Handle(Event{Kind: EventInput, Time: r.now, Input: "write the tests\r"})
	r.event(EventInputWritten)
	assert.Equal(t, StateBusy, r.draw("write the tests").State, "the echo of the text")
	assert.Equal(t, StateBusy, r.draw("\r\n").State, "the echo of Enter")
	assert.Equal(t, StateBusy, r.draw(box+"\x1b7\x1b[4;1H✻ Thinking… (esc to interrupt)\x1b8").State, "working")
	assert.Equal(t, StateReady, r.draw(strings.Replace(box, "fake agent", "fake agent\r\n● done: write the tests", 1)).State, "answered")
}
