package rules

import (
	"strings"
	"time"
)

// liveScreen is what the classification of an interactive run remembers of
// its screen between events: the rows as they were at the last input, so
// rows that have not changed since (a question already answered, a banner
// of a finished command, an old error in the transcript) no longer decide
// the state.
type liveScreen struct {
	// base is the screen's rows when input was last sent; nil before any.
	base []string
	// submitRow is the cursor row when input with Enter was last sent;
	// submitted says there was such input.
	submitRow int
	submitted bool
	// busySeen says the program was seen working since that input: proof
	// that it took the input, so its prompt means it has answered.
	busySeen bool
	// announcedBefore is how many states the program had announced when
	// the input was submitted (AgentSpec.AnnouncesState).
	announcedBefore uint64
	// typed is text sent without Enter since the last Enter: it sits on
	// the prompt row, which still means idle.
	typed string
	// keyEcho is how the terminal echoes the control key last sent
	// ("^C" for Ctrl-C), until the next Enter: the cursor resting after it
	// is not a question.
	keyEcho string
	// classified is the time of the newest classification, so a deadline
	// already acted on is not asked for again.
	classified time.Time
	// classifying is the time of the classification under way.
	classifying time.Time
	// recoverableAt is when a recoverable pattern was last on screen.
	recoverableAt time.Time
	// awaitAnswer is set from submitted input to the first screen drawn
	// after it was written.
	awaitAnswer bool
	// fresh asks for the next verdict to be reported even if unchanged.
	fresh bool
	// lastCursorRow is the cursor row last matched as a line, for a PTY
	// run that is not interactive.
	lastCursorRow string
}

// rebase remembers the rows on screen now as the ones input was sent to.
func (l *liveScreen) rebase(s *Screen) {
	l.base = append(l.base[:0], s.Rows()...)
}

// currentRows returns the rows of the screen that are current: changed
// since the last input, or the cursor row; stale rows come back as "".
// Before any input every row is current. A screen that scrolled since is
// lined up with the rows input was sent to by the shift that matches most
// rows.
func (l *liveScreen) currentRows(s *Screen) []string {
	rows := s.Rows()
	if l.base == nil {
		return rows
	}
	shift := bestShift(l.base, rows)
	_, cursor, _ := s.Cursor()
	inputRowDone := l.submitted && l.keptAbove(rows, shift)
	out := make([]string, len(rows))
	for i, row := range rows {
		if i == cursor {
			out[i] = row
			continue
		}
		j := i + shift
		if j < len(l.base) && l.base[j] == row {
			continue
		}
		if inputRowDone && j == l.submitRow {
			// The row input was typed on holds the question it answered
			// and the echo of the answer; the cursor has left it.
			continue
		}
		out[i] = row
	}
	return out
}

// keptAbove reports whether the rows above the one input was submitted on
// are still there, scrolled up by shift: a line-oriented program that
// printed below its input, not a TUI that redrew its view.
func (l *liveScreen) keptAbove(rows []string, shift int) bool {
	if l.submitRow > len(l.base) {
		return false
	}
	for j, was := range l.base[:l.submitRow] {
		if i := j - shift; i >= 0 && was != "" && rows[i] != was {
			return false
		}
	}
	return true
}

// shiftOf returns how many rows the screen scrolled since the last input.
func (l *liveScreen) shiftOf(s *Screen) int {
	if l.base == nil {
		return 0
	}
	return bestShift(l.base, s.Rows())
}

// bestShift returns the k for which rows[i] == base[i+k] for the most
// non-empty rows: how far the screen scrolled up. Ties go to the smallest.
func bestShift(base, rows []string) int {
	best, bestCount := 0, -1
	for k := range len(base) {
		count := 0
		for i := 0; i+k < len(base) && i < len(rows); i++ {
			if rows[i] != "" && rows[i] == base[i+k] {
				count++
			}
		}
		if count > bestCount {
			best, bestCount = k, count
		}
	}
	return best
}

// matchRows returns the first pattern matching one of rows (blank rows
// skipped), and that row.
func matchRows(patterns []Pattern, rows []string) (Pattern, string, bool) {
	for _, p := range patterns {
		for _, row := range rows {
			if row != "" && p.Re.MatchString(row) {
				return p, row, true
			}
		}
	}
	return Pattern{}, "", false
}

// questionQuiet is how long the output of a program whose cursor rests
// after a text that is not its prompt must stay quiet for that text to
// count as a question (input("name? "), read -p, a pager's ":").
const questionQuiet = 750 * time.Millisecond

// restingQuestion returns the row the cursor rests at the end of, when it
// may be a question: the cursor is shown, the row is not empty and is not
// the echo of text just typed.
func (d *Detector) restingQuestion() (string, bool) {
	col, y, visible := d.screen.Cursor()
	rows := d.screen.Rows()
	if !visible || y >= len(rows) {
		return "", false
	}
	row := rows[y]
	text := strings.TrimRight(row, " ")
	if text == "" || col < len([]rune(text)) {
		return "", false
	}
	if d.live.typed != "" && strings.HasSuffix(text, d.live.typed) {
		return "", false
	}
	if d.live.keyEcho != "" && strings.HasSuffix(text, d.live.keyEcho) {
		// The echo of Ctrl-C while the program that got it dies: a shell
		// draws its prompt only then, which under load takes a while.
		return "", false
	}
	if d.inputSent && d.inputText != "" && isEcho(text, d.inputText) {
		return "", false
	}
	return text, true
}

// quietSince reports whether the output has been quiet for questionQuiet.
func (d *Detector) quietSince(now time.Time) bool {
	return !d.lastOutput.IsZero() && !now.Before(d.lastOutput.Add(questionQuiet))
}

// cursorRow is the row the cursor is on, trimmed; "" when none.
func (s *Screen) cursorRow() string {
	_, y, _ := s.Cursor()
	rows := s.Rows()
	if y < 0 || y >= len(rows) {
		return ""
	}
	return strings.TrimRight(rows[y], " ")
}

// absorbCursorRow matches the cursor row of a PTY run that is not
// classified by its screen as if it were a line: a prompt ("sqlite> ")
// has no newline, so a readyPattern for it would never see a line. It is
// done once output pauses (a screen event follows each burst) and once per
// different row.
func (d *Detector) absorbCursorRow(now time.Time) string {
	if d.screen == nil || d.interactive() {
		return ""
	}
	_, y, _ := d.screen.Cursor()
	rows := d.screen.Rows()
	if y < 0 || y >= len(rows) || rows[y] == "" || rows[y] == d.live.lastCursorRow {
		return ""
	}
	d.live.lastCursorRow = rows[y]
	return d.matchLine(rows[y], now)
}
