package rules

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"time"
)

// AgentSpec says how the screen of an interactive process (an agent CLI, a
// shell, a REPL) shows its state. The ready, error and not-ready patterns of
// the Spec are matched against the screen rows too.
type AgentSpec struct {
	// Busy patterns are shown while the program works (a spinner, "esc to
	// interrupt"); while one is on screen the prompt does not count as ready.
	Busy []Pattern
	// Question patterns show a question waiting for an answer: numbered
	// options, "Enter to select", a free-text request.
	Question []Pattern
	// Permission patterns show a confirmation dialog for a tool or command.
	Permission []Pattern
	// Recoverable patterns show an error the program retries by itself (a
	// rate limit with a countdown); they make the failure recoverable.
	Recoverable []Pattern
	// AnnouncesState says the program tells the terminal when it works and
	// when it is idle (Screen.AppState; Codex does). Its prompt is drawn
	// seconds before it takes input (Enter is lost meanwhile): it is not
	// ready before it says idle, and is busy while it says working.
	AnnouncesState bool
}

// classifyScreen decides the state of an interactive run from its screen,
// in the priority of ARCHITECTURE.md §6: an error on screen, then a first-run dialog
// (not ready), a permission dialog, a question, the idle prompt, and
// otherwise busy. The exit outranks all of these; Handle deals with it.
// Only current rows count (liveScreen.currentRows): a question answered or
// a banner of a command that has ended stays on screen, but no longer
// decides.
func (d *Detector) classifyScreen(now time.Time) Verdict {
	spec := d.spec
	d.live.classifying = now
	rows := d.live.currentRows(d.screen)
	if cursor, ok := d.freshPromptAtCursor(); ok {
		// A scrolling program back at a new prompt: what it printed above
		// belongs to the command that ended.
		rows = slices.Concat(make([]string, cursor), rows[cursor:])
	}
	if p, row, ok := matchRows(spec.ErrorPatterns, rows); ok {
		return d.screenError(rows, row, "error on screen "+quote(row)+" (matched /"+p.Source+"/)")
	}
	if _, row, ok := matchRows(spec.Agent.Recoverable, rows); ok {
		return d.screenError(rows, row, "error on screen "+quote(row))
	}
	if d.inputSent && !d.outputSinceInput() {
		// The dialog or prompt on screen is the one the input answers.
		return d.working(ReasonInput, "", "input sent, waiting for the program to answer")
	}
	if _, row, ok := matchRows(spec.NotReadyPatterns, rows); ok {
		// A first-run screen (a theme picker, a sign-in) waits for a person.
		return Verdict{State: StateAwaitingInput, Reason: ReasonNotReady, Line: row, Message: "asks before it starts: " + quote(row)}
	}
	if _, row, ok := matchRows(spec.Agent.Permission, rows); ok {
		return Verdict{State: StateAwaitingPermission, Reason: ReasonPermission, Line: row, Message: "asks for permission: " + quote(row)}
	}
	if _, row, ok := matchRows(spec.Agent.Question, rows); ok {
		return Verdict{State: StateAwaitingInput, Reason: ReasonQuestion, Line: row, Message: "asks a question: " + quote(row)}
	}
	busyRow, busy := "", false
	if _, row, ok := matchRows(spec.Agent.Busy, rows); ok {
		busyRow, busy = row, true
	}
	if spec.Agent.AnnouncesState && !busy {
		switch d.screen.AppState() {
		case "":
			return d.working(ReasonBusy, "", "starting: it has not said it is idle yet")
		case "working":
			return d.working(ReasonBusy, "", "working, as it says")
		}
	}
	prompt, promptOK := d.promptRow()
	if promptOK && !busy && d.ruleHolds(now) {
		if d.inputSent && !d.answered(prompt, now) {
			return d.working(ReasonInput, "", "input sent, waiting for the program to answer")
		}
		d.inputSent = false
		d.readyLine = prompt
		return Verdict{State: StateReady, Reason: ReasonReady, Line: prompt, Message: d.promptMessage(prompt)}
	}
	if d.holdsRecoverable(now, promptOK && !busy) {
		return d.verdict
	}
	if busy {
		return d.working(ReasonBusy, busyRow, "working: "+quote(busyRow))
	}
	if row, ok := d.restingQuestion(); ok && d.quietSince(now) {
		return Verdict{State: StateAwaitingInput, Reason: ReasonQuestion, Line: row, Message: "waits for an answer at " + quote(row)}
	}
	if d.verdict.State == StateReady && d.live.typed != "" {
		// Text typed at the prompt, not submitted, sets nothing to work:
		// the program is redrawing its line (Node's REPL draws a preview
		// below it and moves the cursor back in writes of their own).
		return d.verdict
	}
	return d.working(ReasonBusy, "", "working (no prompt on screen)")
}

// recoverHold is how long a retry banner, once gone from the screen, keeps
// the run recoverable while the program still works: the banner is
// redrawn in part between attempts, and the state must not flap.
const recoverHold = 15 * time.Second

// holdsRecoverable reports whether a recoverable failure stays the verdict
// though its banner is not on screen now: the program is not idle at its
// prompt and the banner was seen less than recoverHold ago.
func (d *Detector) holdsRecoverable(now time.Time, idle bool) bool {
	return !idle && d.verdict.Recoverable && !d.live.recoverableAt.IsZero() &&
		now.Before(d.live.recoverableAt.Add(recoverHold))
}

// working is busy once the program has been up, and starting before.
func (d *Detector) working(reason Reason, row, message string) Verdict {
	if !d.up {
		return startingVerdict
	}
	return Verdict{State: StateBusy, Reason: reason, Line: row, Message: message}
}

// screenError is the failed verdict of an error shown on screen; it is
// recoverable when a recoverable pattern is on screen too.
func (d *Detector) screenError(rows []string, row, message string) Verdict {
	_, _, recoverable := matchRows(d.spec.Agent.Recoverable, rows)
	v := Verdict{State: StateFailed, Reason: ReasonError, Line: row, Message: message, Recoverable: recoverable}
	if recoverable {
		d.live.recoverableAt = d.live.classifying
		v.Reason = ReasonRecoverable
		v.Message += "; the program retries by itself"
	}
	return v
}

// promptRow finds the idle prompt. With the cursor shown, only the cursor
// row and the rows below it count: prompts of earlier commands stay on a
// scrolling screen (a REPL's old ">>> " lines) but the live one is where
// the cursor waits. A program that hides the cursor redraws the whole
// screen, so any row counts. With no ready patterns the prompt is implied.
func (d *Detector) promptRow() (string, bool) {
	if len(d.spec.ReadyPatterns) == 0 {
		return "", true
	}
	from := 0
	_, cursor, visible := d.screen.Cursor()
	if visible {
		from = cursor
	}
	if _, row, ok := d.screen.matchAnyRow(d.spec.ReadyPatterns, from); ok {
		return row, true
	}
	// Text typed without Enter sits on the prompt row: still idle.
	if typed := d.live.typed; visible && typed != "" {
		return d.promptBeforeEcho(d.screen.Rows()[cursor], typed)
	}
	return "", false
}

// promptBeforeEcho returns the prompt that row holds before the echo of
// typed text: all of it, or the keys read so far (Node's REPL echoes a key
// at a time, and "  return 42" first shows as one space after "... ").
func (d *Detector) promptBeforeEcho(row, typed string) (string, bool) {
	for _, r := range []string{row, strings.TrimRight(row, " ")} {
		for before := range echoedStarts(r, typed) {
			if _, ok := matchAny(d.spec.ReadyPatterns, before); ok {
				return before, true
			}
		}
	}
	return "", false
}

// ruleHolds evaluates the `ready` rule, when there is one, for the screen.
func (d *Detector) ruleHolds(now time.Time) bool {
	return d.spec.Rule == nil || d.evalRule(now, "")
}

func (d *Detector) promptMessage(prompt string) string {
	if prompt == "" {
		return "idle"
	}
	return fmt.Sprintf("idle at prompt %s", quote(prompt))
}

// handleScreen reclassifies an interactive run after its screen changed.
func (d *Detector) handleScreen(ev Event) {
	if !ev.Time.IsZero() && ev.Time.After(d.lastOutput) {
		d.lastOutput = ev.Time
	}
	d.reclassify(ev.Time)
	if d.live.awaitAnswer && d.outputSinceInput() {
		// The first verdict after the program answered is reported even
		// when it is the one before: the engine marked the process busy
		// when the input was sent, and only this verdict ends that.
		d.live.awaitAnswer, d.live.fresh = false, true
	}
	// A busy marker (a spinner) proves the input was taken; a frame with
	// no prompt may be a TUI changing views.
	if d.inputSent && d.outputSinceInput() && d.verdict.State == StateBusy && d.verdict.Line != "" {
		d.live.busySeen = true
	}
	// Any state after the write but our own "input sent" answers it too:
	// a spinner, a dialog, an error. A frame with no prompt and no marker
	// does not: a TUI changing views draws one before it takes the input.
	if d.inputSent && d.outputSinceInput() && d.verdict.Reason != ReasonInput &&
		(d.verdict.State != StateBusy || d.verdict.Line != "") {
		d.inputSent = false
	}
}

// reclassify sets the verdict from the screen and remembers whether the
// program has been up (any state past starting) in this run.
func (d *Detector) reclassify(now time.Time) {
	v := d.classifyScreen(now)
	if now.After(d.live.classified) {
		d.live.classified = now
	}
	switch v.State {
	case StateReady, StateBusy, StateAwaitingInput, StateAwaitingPermission:
		d.up = true
		// A timeout while starting is over once the program shows it is up.
		d.failed = false
	}
	if d.failed {
		return
	}
	d.verdict = v
}

// takeFresh reports, once, that the verdict must be reported even if it
// equals the one before.
func (d *Detector) takeFresh() bool {
	fresh := d.live.fresh
	d.live.fresh = false
	return fresh
}

// classifyExitInteractive is classifyExit for interactive programs: exit 0
// or an interrupt (130, SIGINT) that procs did not ask for is the user
// leaving (/exit, Ctrl-C), not a failure; so is any exit code after a
// leave command with no status of its own (leftByCommand).
func classifyExitInteractive(e Exit, leftByCommand bool) Verdict {
	v := classifyExit(e, false)
	if e.Err != nil || e.Requested {
		return v
	}
	sig := e.signalOf()
	if (e.Code == 0 || leftByCommand) && sig == 0 || sig == syscall.SIGINT {
		v.State, v.Reason = StateStopped, ReasonUserExit
		v.Message = "the user ended it (" + e.describe() + ")"
	}
	return v
}

// leaveCommands are what a person types to leave a shell, a REPL or an
// agent CLI, giving no status of their own. A shell's bare exit returns
// the status of the last command run (ls's 2 for a missing file), which
// says nothing about the shell; "exit 5" is a status, and a failure.
var leaveCommands = []string{"exit", "logout", "exit()", "quit()", ".exit", `\q`, "/exit", "/quit"}

// leftByCommand reports whether the input submitted last, still
// unanswered, is a leave command.
func (d *Detector) leftByCommand() bool {
	return d.inputSent && slices.Contains(leaveCommands, strings.TrimSpace(d.inputText))
}

// decideInteractive applies an event to an interactive run. Lines change
// nothing by themselves: the screen event that follows their output does.
func (d *Detector) decideInteractive(ev Event) {
	switch ev.Kind {
	case EventLine:
	case EventScreen:
		d.handleScreen(ev)
	case EventInput, EventInputWritten, EventKeys:
		d.handleInput(ev)
	default:
		// Ports, probes, dependencies and timers may change the rule.
		d.reclassify(ev.Time)
	}
}
