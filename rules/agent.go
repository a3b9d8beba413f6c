package rules

import (
	"fmt"
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
}

// Interactive state reasons, as verdicts and events carry them.
const (
	ReasonPrompt      = "prompt"
	ReasonBusy        = "busy"
	ReasonInput       = "input"
	ReasonQuestion    = "question"
	ReasonPermission  = "permission"
	ReasonRecoverable = "recoverable"
	ReasonUserExit    = "user-exit"
)

// classifyScreen decides the state of an interactive run from its screen,
// in the priority of ARCHITECTURE.md §6: an error on screen, then a first-run dialog
// (not ready), a permission dialog, a question, the idle prompt, and
// otherwise busy. The exit outranks all of these; Handle deals with it.
func (d *Detector) classifyScreen(now time.Time) Verdict {
	s, spec := d.screen, d.spec
	if p, row, ok := s.matchAnyRow(spec.ErrorPatterns, 0); ok {
		return d.screenError(row, "error on screen "+quote(row)+" (matched /"+p.Source+"/)")
	}
	if _, row, ok := s.matchAnyRow(spec.Agent.Recoverable, 0); ok {
		return d.screenError(row, "error on screen "+quote(row))
	}
	if _, row, ok := s.matchAnyRow(spec.NotReadyPatterns, 0); ok {
		return Verdict{State: StateStarting, Reason: "not-ready", Line: row, Message: "waiting at prompt " + quote(row)}
	}
	if _, row, ok := s.matchAnyRow(spec.Agent.Permission, 0); ok {
		return Verdict{State: StateAwaitingPermission, Reason: ReasonPermission, Line: row, Message: "asks for permission: " + quote(row)}
	}
	if _, row, ok := s.matchAnyRow(spec.Agent.Question, 0); ok {
		return Verdict{State: StateAwaitingInput, Reason: ReasonQuestion, Line: row, Message: "asks a question: " + quote(row)}
	}
	busyRow, busy := "", false
	if _, row, ok := s.matchAnyRow(spec.Agent.Busy, 0); ok {
		busyRow, busy = row, true
	}
	prompt, promptOK := d.promptRow()
	if promptOK && !busy && d.ruleHolds(now) {
		if d.inputSent && !d.answered(prompt, now) {
			return d.working(ReasonInput, "", "input sent, waiting for the program to answer")
		}
		d.inputSent = false
		d.readyLine = prompt
		return Verdict{State: StateReady, Reason: "ready", Line: prompt, Message: d.promptMessage(prompt)}
	}
	if busy {
		return d.working(ReasonBusy, busyRow, "working: "+quote(busyRow))
	}
	return d.working(ReasonBusy, "", "working (no prompt on screen)")
}

// working is busy once the program has been up, and starting before.
func (d *Detector) working(reason, row, message string) Verdict {
	if !d.up {
		return startingVerdict
	}
	return Verdict{State: StateBusy, Reason: reason, Line: row, Message: message}
}

// screenError is the failed verdict of an error shown on screen; it is
// recoverable when a recoverable pattern is on screen too.
func (d *Detector) screenError(row, message string) Verdict {
	_, _, recoverable := d.screen.matchAnyRow(d.spec.Agent.Recoverable, 0)
	v := Verdict{State: StateFailed, Reason: "error", Line: row, Message: message, Recoverable: recoverable}
	if recoverable {
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
	if _, row, visible := d.screen.Cursor(); visible {
		from = row
	}
	_, row, ok := d.screen.matchAnyRow(d.spec.ReadyPatterns, from)
	return row, ok
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

// outputSinceInput reports whether output was read after the submitted
// input reached the program.
func (d *Detector) outputSinceInput() bool {
	return !d.inputWritten.IsZero() && d.lastOutput.After(d.inputWritten)
}

// answerGrace is how long after submitted input an unchanged screen with
// its prompt counts as the answer: a command that changes nothing on screen
// must not leave the program busy for ever.
const answerGrace = time.Second

// answered reports whether the program has answered submitted input, given
// the prompt row on screen now: output came after the write; it is not
// just the echo of the text typed into the prompt (a prompt row still
// ending with the text, or with its start, is the echo; an answer is a
// fresh prompt); and the screen differs from the one the input was sent
// to (a program may redraw the same prompt just after the write), or
// answerGrace has passed.
func (d *Detector) answered(prompt string, now time.Time) bool {
	if !d.outputSinceInput() || isEcho(strings.TrimRight(prompt, " "), d.inputText) {
		return false
	}
	return d.screen.Text() != d.inputScreen || !now.Before(d.inputWritten.Add(answerGrace))
}

// inputDeadline is when an unchanged screen will count as the answer.
func (d *Detector) inputDeadline() (time.Time, bool) {
	if !d.inputSent || d.inputWritten.IsZero() {
		return time.Time{}, false
	}
	return d.inputWritten.Add(answerGrace), true
}

// isEcho reports whether row ends with the typed text or a start of it (a
// program echoes keys as it reads them, one write each).
func isEcho(row, typed string) bool {
	for k := len(typed); k > 0; k-- {
		if strings.HasSuffix(row, typed[:k]) {
			return true
		}
	}
	return false
}

// handleScreen reclassifies an interactive run after its screen changed.
func (d *Detector) handleScreen(ev Event) {
	if !ev.Time.IsZero() && ev.Time.After(d.lastOutput) {
		d.lastOutput = ev.Time
	}
	d.reclassify(ev.Time)
	// Any state after the write but our own "input sent" answers it too:
	// a spinner, a dialog, or no prompt while the command runs.
	if d.inputSent && d.outputSinceInput() && d.verdict.Reason != ReasonInput {
		d.inputSent = false
	}
}

// reclassify sets the verdict from the screen and remembers whether the
// program has been up (any state past starting) in this run.
func (d *Detector) reclassify(now time.Time) {
	v := d.classifyScreen(now)
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

// handleInput records input that ends with Enter: until the program
// answers with output, its prompt no longer means idle.
func (d *Detector) handleInput(ev Event) {
	switch ev.Kind {
	case EventInput:
		d.inputSent, d.inputWritten = true, time.Time{}
		d.inputText = lastInputLine(ev.Input)
		d.inputScreen = d.screen.Text()
	case EventInputWritten:
		if d.inputSent {
			d.inputWritten = ev.Time
		}
	}
	d.reclassify(ev.Time)
}

// classifyExitInteractive is classifyExit for interactive programs: exit 0
// or an interrupt (130, SIGINT) that procs did not ask for is the user
// leaving (/exit, Ctrl-C), not a failure.
func classifyExitInteractive(e Exit) Verdict {
	v := classifyExit(e, false)
	if e.Err != nil || e.Requested {
		return v
	}
	if sig := e.signalOf(); (e.Code == 0 && sig == 0) || sig == syscall.SIGINT {
		v.State, v.Reason = StateStopped, ReasonUserExit
		v.Message = "the user ended it (" + e.describe() + ")"
	}
	return v
}

// decideInteractive applies an event to an interactive run. Lines change
// nothing by themselves: the screen event that follows their output does.
func (d *Detector) decideInteractive(ev Event) {
	switch ev.Kind {
	case EventLine:
	case EventScreen:
		d.handleScreen(ev)
	case EventInput, EventInputWritten:
		d.handleInput(ev)
	default:
		// Ports, probes, dependencies and timers may change the rule.
		d.reclassify(ev.Time)
	}
}

// lastInputLine is the last line of submitted text without its Enter: what
// the program echoes on its prompt row.
func lastInputLine(text string) string {
	text = strings.TrimRight(text, "\r\n")
	if i := strings.LastIndexAny(text, "\r\n"); i >= 0 {
		text = text[i+1:]
	}
	return strings.TrimRight(text, " ")
}
