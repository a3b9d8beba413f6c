package rules

import (
	"iter"
	"strings"
	"time"
)

// Input to an interactive run: what was typed or submitted, and when the
// program has answered it.

// outputSinceInput reports whether output was read after the submitted
// input reached the program.
func (d *Detector) outputSinceInput() bool {
	return !d.inputWritten.IsZero() && d.lastOutput.After(d.inputWritten)
}

// answerSettle is how long the screen must stay quiet after submitted
// input, with its prompt showing, for the prompt to count as the answer
// when nothing else shows the input was taken: an agent may draw its
// spinner a moment after Enter, and its prompt never left the screen.
const answerSettle = 2 * time.Second

// announcedAnswerSettle is answerSettle for a program that announces its
// state: its announcement is the proof it took the input, which may come
// seconds after Enter (Codex 0.169 said working 8.4 s after an Enter typed
// as it started); this bounds the wait for input it answers without
// working (a slash command showing a panel).
const announcedAnswerSettle = 10 * time.Second

// answerSettleOf is the answerSettle of the run's program.
func (d *Detector) answerSettleOf() time.Duration {
	if d.spec.Agent.AnnouncesState {
		return announcedAnswerSettle
	}
	return answerSettle
}

// answered reports whether the program has answered submitted input, given
// the prompt row on screen now: output came after the write; it is not
// just the echo of the text typed into the prompt (a prompt row still
// ending with the text, or with its start, is the echo); and there is
// evidence the input was taken: the program was seen busy, the prompt is a
// fresh one below the row the input was sent on (a REPL), a program that
// announces its state has announced one since, or the screen has settled
// for answerSettle (announcedAnswerSettle) since its last change.
func (d *Detector) answered(prompt string, now time.Time) bool {
	if !d.outputSinceInput() || isEcho(strings.TrimRight(prompt, " "), d.inputText) {
		return false
	}
	if d.live.busySeen || d.freshPromptBelow() {
		return true
	}
	if d.spec.Agent.AnnouncesState && d.screen.Announcements() > d.live.announcedBefore {
		return true // it said working, or idle, since
	}
	return !now.Before(d.lastOutput.Add(d.answerSettleOf()))
}

// freshPromptBelow reports whether the cursor, at a prompt, is on a row
// below the one input was last submitted on: the program printed a new
// prompt, as a REPL or a shell does after each command.
func (d *Detector) freshPromptBelow() bool {
	col, cursor, visible := d.screen.Cursor()
	shift := d.live.shiftOf(d.screen)
	echoRow := d.live.submitRow - shift
	if !visible || cursor <= echoRow || echoRow < 0 {
		return false
	}
	rows := d.screen.Rows()
	// A prompt is printed before the cursor. The terminal's echo of the
	// Enter moves the cursor to the start of the next row at once, before
	// the program has read the line: that is no prompt.
	if before := []rune(rows[cursor]); strings.TrimSpace(string(before[:min(col, len(before))])) == "" {
		return false
	}
	// The input stays where it was typed, under what was there before,
	// above the new prompt; a TUI that redrew its view and moved its
	// prompt has not answered by that alone.
	if !d.live.keptAbove(rows, shift) {
		return false
	}
	// A long input wraps: its start is on the row it was typed on.
	start := []rune(d.inputText)
	return strings.Contains(rows[echoRow], string(start[:min(len(start), 20)]))
}

// freshPromptAtCursor returns the cursor row when it holds a prompt the
// program printed below the row input was typed on.
func (d *Detector) freshPromptAtCursor() (int, bool) {
	_, cursor, visible := d.screen.Cursor()
	if !visible || !d.live.submitted || !d.freshPromptBelow() {
		return 0, false
	}
	_, ok := matchAny(d.spec.ReadyPatterns, d.screen.Rows()[cursor])
	return cursor, ok
}

// inputDeadline is when the classification may change with no new event:
// the earliest of the end of answerSettle after submitted input, of
// recoverHold after a retry banner, and of questionQuiet for a cursor
// resting after a text that is not the prompt. The earliest, for
// input("name? ") answers Enter at once, and its question must not wait
// for answerSettle.
func (d *Detector) inputDeadline() (time.Time, bool) {
	var next time.Time
	// A deadline already passed has been classified: asking again would
	// spin the timer.
	consider := func(at time.Time) {
		if at.After(d.live.classified) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	if d.inputSent && !d.inputWritten.IsZero() && !d.lastOutput.IsZero() {
		consider(d.lastOutput.Add(d.answerSettleOf()))
	}
	if d.verdict.Recoverable {
		consider(d.live.recoverableAt.Add(recoverHold))
	}
	if d.verdict.State == StateBusy || d.verdict.State == StateStarting {
		if _, ok := d.restingQuestion(); ok && !d.lastOutput.IsZero() {
			// A prompt is not a question, however long it rests.
			if _, prompt := d.promptRow(); !prompt {
				consider(d.lastOutput.Add(questionQuiet))
			}
		}
	}
	return next, !next.IsZero()
}

// isEcho reports whether row ends with the typed text or a start of it (a
// program echoes keys as it reads them, one write each).
func isEcho(row, typed string) bool {
	for range echoedStarts(row, typed) {
		return true
	}
	return false
}

// echoedStarts yields, longest echo first, what row holds before each start
// of typed it ends with: before the echo of all of it, or of the keys read
// so far.
func echoedStarts(row, typed string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for k := len(typed); k > 0; k-- {
			if before, ok := strings.CutSuffix(row, typed[:k]); ok && !yield(before) {
				return
			}
		}
	}
}

// handleInput records input. Whatever was on screen when it was sent is
// no longer current. Input that ends with Enter is submitted: until the
// program answers, its prompt no longer means idle. Text without Enter
// sits on the prompt row; a control key (Ctrl-C, Esc) clears it.
func (d *Detector) handleInput(ev Event) {
	switch ev.Kind {
	case EventKeys:
		d.live.typed = typedText(d.live.typed, ev.Input)
		if echo := controlEcho(ev.Input); echo != "" {
			d.live.keyEcho = echo
		}
		if d.live.typed == "" {
			// A control key (Ctrl-C, Esc) ends what was on screen; typed
			// text only edits the prompt row.
			d.live.rebase(d.screen)
		}
	case EventInput:
		d.live.rebase(d.screen)
		d.inputSent, d.inputWritten = true, time.Time{}
		d.inputText = lastInputLine(d.live.typed + ev.Input)
		d.inputScreen = d.screen.Text()
		_, d.live.submitRow, _ = d.screen.Cursor()
		d.live.submitted = true
		d.live.busySeen, d.live.typed, d.live.keyEcho = false, "", ""
		d.live.announcedBefore = d.screen.Announcements()
		d.live.awaitAnswer = true
	case EventInputWritten:
		if d.inputSent {
			d.inputWritten = ev.Time
		}
	}
	d.reclassify(ev.Time)
}

// typedText is what sits on the prompt row after input without Enter:
// printable text adds to it, anything else (a control key, an escape
// sequence) leaves it unknown.
func typedText(typed, input string) string {
	for _, r := range input {
		if r < ' ' || r == 0x7f {
			return ""
		}
	}
	return typed + input
}

// controlEcho is how a terminal with echoctl (the default) echoes the last
// control key of input: "^C" for Ctrl-C; "" when it holds none. Escape
// sequences (arrows) are not echoed so.
func controlEcho(input string) string {
	echo := ""
	for i := 0; i < len(input); i++ {
		switch c := input[i]; {
		case c == 0x1b:
			return echo // an escape sequence follows
		case c == 0x7f:
			echo = "^?"
		case c < ' ' && c != '\r' && c != '\n' && c != '\t':
			echo = "^" + string(rune(c+'@'))
		}
	}
	return echo
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
