package rules

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/hinshun/vt10x"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// Default terminal size of a PTY process (ARCHITECTURE.md §6).
const (
	DefaultCols = 120
	DefaultRows = 40
)

// Screen is a model of the terminal a PTY process draws on: the raw output
// goes in, and "what is on the screen now" comes out, with cursor moves,
// clear-screen and redraws applied. Full-screen programs (agent CLIs, TUIs)
// are classified by it rather than by the stream of lines, which for them
// is a jumble of partial redraws. The emulation is hinshun/vt10x.
//
// A Screen is not safe for concurrent use: the goroutine that owns the run
// feeds and reads it.
type Screen struct {
	term vt10x.Terminal
	// replies collects what the emulator answers to the program's terminal
	// queries (cursor position, status); the owner sends it as input.
	replies bytes.Buffer
	// partial is an incomplete UTF-8 sequence at the end of the last write.
	partial []byte
	// rows caches the text of each row until the next write.
	rows []string
	// version counts writes and resizes, so callers can tell whether the
	// screen may have changed.
	version uint64
	// appState is the state the program last announced (AppState), and
	// announcements how many announcements it has made.
	appState      string
	announcements uint64
}

// NewScreen returns an empty screen of cols×rows (the defaults when <= 0).
func NewScreen(cols, rows int) *Screen {
	if cols <= 0 {
		cols = DefaultCols
	}
	if rows <= 0 {
		rows = DefaultRows
	}
	s := &Screen{}
	s.term = vt10x.New(vt10x.WithSize(cols, rows), vt10x.WithWriter(&s.replies))
	return s
}

// Write feeds raw output to the screen. It never fails: bytes the emulator
// does not understand are ignored, as a terminal would.
func (s *Screen) Write(p []byte) (int, error) {
	n := len(p)
	if len(s.partial) > 0 {
		p = append(s.partial, p...)
		s.partial = nil
	}
	// vt10x drops a rune split across writes; keep the head for next time,
	// and the start of an escape sequence, so that it is filtered whole.
	if keep := max(incompleteRuneTail(p), openSequenceTail(p)); keep > 0 {
		s.partial = append([]byte(nil), p[len(p)-keep:]...)
		p = p[:len(p)-keep]
	}
	s.noteAppState(p)
	s.writeAnswering(dropMisreadQueries(p))
	s.rows = nil
	s.version++
	return n, nil
}

// appStateOSC starts the sequence by which a program announces its state
// to the terminal: ESC ] 7501 ; state=idle:app=codex ST. Codex sends
// state=working when a turn starts, state=idle when it is back at its
// prompt (the first time once it takes input), state=clear as it leaves.
var appStateOSC = []byte("\x1b]7501;")

// appStateMax bounds an announcement kept whole across writes: a longer one
// is not one.
const appStateMax = 256

// noteAppState remembers the last state p announces.
func (s *Screen) noteAppState(p []byte) {
	for i := bytes.Index(p, appStateOSC); i >= 0; i = bytes.Index(p, appStateOSC) {
		seq, _, n, _ := ansi.DecodeSequence(p[i:], ansi.NormalState, nil)
		p = p[i+max(n, 1):]
		body := strings.TrimPrefix(string(seq), string(appStateOSC))
		body = strings.TrimSuffix(strings.TrimSuffix(body, "\a"), "\x1b\\")
		for _, field := range strings.Split(body, ":") {
			if state, ok := strings.CutPrefix(field, "state="); ok {
				s.appState = state
				s.announcements++
			}
		}
	}
}

// AppState returns the state the program last announced with OSC 7501
// ("idle", "working", "clear"), or "" when it has announced none.
func (s *Screen) AppState() string { return s.appState }

// Announcements counts the states the program has announced.
func (s *Screen) Announcements() uint64 { return s.announcements }

// deviceAttributesQuery is the primary DA request; vt10x leaves it
// unanswered, and some TUIs wait for the answer before they draw.
var deviceAttributesQuery = lazyregexp.New(`\x1b\[0?c`)

// writeAnswering feeds p to the emulator and answers each DA request in
// it with "VT102", in order with the replies the emulator writes itself.
func (s *Screen) writeAnswering(p []byte) {
	done := 0
	for _, loc := range deviceAttributesQuery.FindAllIndex(p, -1) {
		_, _ = s.term.Write(p[done:loc[1]])
		s.replies.WriteString("\x1b[?6c")
		done = loc[1]
	}
	_, _ = s.term.Write(p[done:])
}

// TakeReplies returns, and forgets, what the emulator answered to terminal
// queries since the last call. A real terminal would have sent these bytes
// to the program as input; nil when there are none.
func (s *Screen) TakeReplies() []byte {
	if s.replies.Len() == 0 {
		return nil
	}
	out := bytes.Clone(s.replies.Bytes())
	s.replies.Reset()
	return out
}

// Resize changes the size of the screen, as a terminal window resize does.
func (s *Screen) Resize(cols, rows int) {
	if cols <= 0 || rows <= 0 {
		return
	}
	s.term.Resize(cols, rows)
	s.rows = nil
	s.version++
}

// Size returns the columns and rows of the screen.
func (s *Screen) Size() (cols, rows int) { return s.term.Size() }

// Version changes whenever the screen may have changed.
func (s *Screen) Version() uint64 { return s.version }

// Cursor returns the cursor position (0-based column and row) and whether
// the program shows it.
func (s *Screen) Cursor() (col, row int, visible bool) {
	s.term.Lock()
	defer s.term.Unlock()
	c := s.term.Cursor()
	return c.X, c.Y, s.term.CursorVisible()
}

// Rows returns the text of every row, top to bottom, with trailing blanks
// removed, except on the cursor row up to the cursor: a prompt such as
// ">>> " keeps the space the cursor waits after. The slice is shared until
// the next write: do not modify it.
func (s *Screen) Rows() []string {
	if s.rows != nil {
		return s.rows
	}
	s.term.Lock()
	defer s.term.Unlock()
	cols, rows := s.term.Size()
	cursor := s.term.Cursor()
	out := make([]string, rows)
	var b strings.Builder
	for y := range rows {
		b.Reset()
		keep := 0
		if y == cursor.Y {
			keep = cursor.X
		}
		for x := range cols {
			r := s.term.Cell(x, y).Char
			if r == 0 {
				r = ' '
			}
			b.WriteRune(r)
			if r != ' ' {
				keep = max(keep, x+1)
			}
		}
		out[y] = string([]rune(b.String())[:min(keep, cols)])
	}
	s.rows = out
	return out
}

// Text returns the screen as text: its rows joined by newlines, without the
// blank rows at the bottom.
func (s *Screen) Text() string {
	rows := s.Rows()
	end := len(rows)
	for end > 0 && rows[end-1] == "" {
		end--
	}
	return strings.Join(rows[:end], "\n")
}

// Contains reports whether some row of the screen contains sub.
func (s *Screen) Contains(sub string) bool {
	for _, row := range s.Rows() {
		if strings.Contains(row, sub) {
			return true
		}
	}
	return false
}

// Matches reports whether some row of the screen matches the regex src. An
// invalid regex matches nothing (constant ones are rejected at config load).
func (s *Screen) Matches(src string) bool {
	re, err := cachedRegexp(src)
	if err != nil {
		return false
	}
	_, ok := s.matchRow(re, 0)
	return ok
}

// matchRow returns the first row at or below from that matches re.
func (s *Screen) matchRow(re *regexp.Regexp, from int) (string, bool) {
	rows := s.Rows()
	for _, row := range rows[min(from, len(rows)):] {
		if row != "" && re.MatchString(row) {
			return row, true
		}
	}
	return "", false
}

// matchAnyRow returns the first pattern matching a row at or below from,
// and that row.
func (s *Screen) matchAnyRow(patterns []Pattern, from int) (Pattern, string, bool) {
	for _, p := range patterns {
		if row, ok := s.matchRow(p.Re, from); ok {
			return p, row, true
		}
	}
	return Pattern{}, "", false
}

// Find returns the first row of the screen that matches re.
func (s *Screen) Find(re *regexp.Regexp) (row string, ok bool) {
	return s.matchRow(re, 0)
}
