package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScreenRedraws(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []string
		want   string
	}{
		{"plain lines", []string{"one\r\ntwo\r\n"}, "one\ntwo"},
		{"carriage return overwrites", []string{"loading 10%\rloading 99%\rdone       \r\n"}, "done"},
		{"clear screen forgets", []string{"old text\r\n", "\x1b[2J\x1b[Hnew"}, "new"},
		{"cursor moves redraw a row", []string{"a\r\nspinner |\r\nb", "\x1b[2;9H/"}, "a\nspinner /\nb"},
		{"erase line", []string{"question?\r\n> typed", "\x1b[2K\r> "}, "question?\n> "},
		{"alt screen and back", []string{"shell$ ", "\x1b[?1049h\x1b[Hfull screen", "\x1b[?1049l"}, "shell$ "},
		{"rune split across writes", []string{"\xe2\x9d", "\xaf ready"}, "❯ ready"},
		{"colours are not text", []string{"\x1b[1;32mgreen\x1b[0m"}, "green"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScreen(40, 5)
			for _, w := range tc.writes {
				n, err := s.Write([]byte(w))
				require.NoError(t, err)
				assert.Equal(t, len(w), n)
			}
			assert.Equal(t, tc.want, s.Text())
		})
	}
}

func TestScreenQueries(t *testing.T) {
	s := NewScreen(0, 0)
	cols, rows := s.Size()
	assert.Equal(t, []int{DefaultCols, DefaultRows}, []int{cols, rows})
	_, _ = s.Write([]byte("abc\x1b[6n\x1b[c"))
	assert.Equal(t, "\x1b[1;4R\x1b[?6c", string(s.TakeReplies()), "cursor position and device attributes answered")
	assert.Nil(t, s.TakeReplies(), "replies are taken once")

	// Two queries in one read (Claude Code 2.1.330 sends several): each
	// answered, and the text between them drawn once, in order.
	s = NewScreen(20, 3)
	_, _ = s.Write([]byte("a\x1b[cbb\x1b[cccc\x1b[0cd"))
	assert.Equal(t, "\x1b[?6c\x1b[?6c\x1b[?6c", string(s.TakeReplies()))
	assert.Equal(t, "abbcccd", s.Text())
}

func TestScreenContainsMatchesCursor(t *testing.T) {
	s := NewScreen(20, 4)
	_, _ = s.Write([]byte("> \x1b[?25l"))
	assert.True(t, s.Contains("> "[:1]))
	assert.True(t, s.Matches(`^>`))
	assert.False(t, s.Matches(`(`), "a bad regex matches nothing")
	col, row, visible := s.Cursor()
	assert.Equal(t, 2, col)
	assert.Equal(t, 0, row)
	assert.False(t, visible)
	v := s.Version()
	s.Resize(30, 6)
	assert.NotEqual(t, v, s.Version())
	cols, rows := s.Size()
	assert.Equal(t, []int{30, 6}, []int{cols, rows})
}

func TestScreenRenderRedrawsOnAnotherScreen(t *testing.T) {
	s := NewScreen(30, 5)
	_, _ = s.Write([]byte("\x1b[31mred\x1b[0m plain\r\n\x1b[1;44mbold on blue\x1b[0m\r\n\x1b[38;5;200mx\x1b[38;2;1;2;3my\x1b[0m\r\n> "))
	copyOf := NewScreen(30, 5)
	_, _ = copyOf.Write(s.Render())
	assert.Equal(t, s.Text(), copyOf.Text())
	for y := range 3 {
		for x := range 12 {
			assert.Equal(t, s.term.Cell(x, y), copyOf.term.Cell(x, y), "cell %d,%d", x, y)
		}
	}
	c1, r1, _ := s.Cursor()
	c2, r2, _ := copyOf.Cursor()
	assert.Equal(t, []int{c1, r1}, []int{c2, r2})
	assert.True(t, strings.HasSuffix(string(s.Render()), "\x1b[?25h"))
}

// TestScreenIgnoresQueriesVT10xMisreads: the kitty keyboard query (CSI ? u)
// and XTVERSION (CSI > 0 q) leave the cursor where it is, as in tmux,
// even when a read ends in the middle of one.
func TestScreenIgnoresQueriesVT10xMisreads(t *testing.T) {
	for _, writes := range [][]string{
		{"\x1b[3;5Hx\x1b]11;?\x07\x1b[c\x1b[>0q\x1b[?u"},
		{"\x1b[3;5Hx\x1b[>0", "q\x1b[", "?u"},
		{"\x1b[3;5Hx\x1b", "[?u\x1b[>1u\x1b[<u"},
	} {
		s := NewScreen(20, 5)
		for _, w := range writes {
			_, _ = s.Write([]byte(w))
		}
		col, row, _ := s.Cursor()
		assert.Equal(t, []int{5, 2}, []int{col, row}, "%q", writes)
		_, _ = s.Write([]byte("y"))
		assert.Equal(t, "    xy", s.Rows()[2][:6])
	}
}
