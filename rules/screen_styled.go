package rules

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
)

// styleBits are the attribute bits of a glyph that change its look (vt10x
// also keeps state such as line wrapping in Mode).
const styleBits = glyphReverse | glyphUnderline | glyphBold | glyphItalic | glyphBlink

// StyledRows returns the rows of Text with their colours and attributes:
// each row starts in the default look, an SGR sequence is written where the
// look changes, and one resets it at the end of a row that changed it. A
// row also keeps the blanks after its text that have a background (a
// coloured bar). Dashboards draw it; everything else reads Text.
func (s *Screen) StyledRows() []string {
	plain := strings.Split(s.Text(), "\n")
	s.term.Lock()
	defer s.term.Unlock()
	cols, rows := s.term.Size()
	out := make([]string, 0, len(plain))
	var b bytes.Buffer
	for y := 0; y < len(plain) && y < rows; y++ {
		b.Reset()
		end := utf8.RuneCountInString(plain[y])
		for x := end; x < cols; x++ {
			if g := s.term.Cell(x, y); g.BG != vt10x.DefaultBG || g.Mode&glyphReverse != 0 {
				end = x + 1
			}
		}
		plainLook := vt10x.Glyph{FG: vt10x.DefaultFG, BG: vt10x.DefaultBG}
		last := plainLook
		for x := range min(end, cols) {
			g := s.term.Cell(x, y)
			g.Mode &= styleBits
			if g.FG != last.FG || g.BG != last.BG || g.Mode != last.Mode {
				writeSGR(&b, g)
				last = g
			}
			r := g.Char
			if r == 0 {
				r = ' '
			}
			b.WriteRune(r)
		}
		if last.FG != plainLook.FG || last.BG != plainLook.BG || last.Mode != 0 {
			b.WriteString("\x1b[0m")
		}
		out = append(out, b.String())
	}
	return out
}
