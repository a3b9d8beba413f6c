package rules

import (
	"bytes"
	"strconv"

	"github.com/hinshun/vt10x"
)

// Glyph attribute bits of vt10x (unexported there, stable in its source).
const (
	glyphReverse   = 1 << 0
	glyphUnderline = 1 << 1
	glyphBold      = 1 << 2
	glyphItalic    = 1 << 4
	glyphBlink     = 1 << 5
)

// Render returns the escape sequences that redraw the current screen on a
// real terminal of the same size: clear, every cell with its colours and
// attributes, then the cursor where the program left it. `procs attach`
// sends it first, so a client joining a running TUI sees what is there
// without waiting for the program to redraw.
func (s *Screen) Render() []byte {
	s.term.Lock()
	defer s.term.Unlock()
	var b bytes.Buffer
	b.WriteString("\x1b[0m\x1b[H\x1b[2J")
	cols, rows := s.term.Size()
	for y := range rows {
		b.WriteString("\x1b[" + strconv.Itoa(y+1) + ";1H")
		var last vt10x.Glyph
		first := true
		for x := range cols {
			g := s.term.Cell(x, y)
			if first || g.FG != last.FG || g.BG != last.BG || g.Mode != last.Mode {
				writeSGR(&b, g)
				last, first = g, false
			}
			r := g.Char
			if r == 0 {
				r = ' '
			}
			// The last cell of the last row would scroll some terminals.
			if y == rows-1 && x == cols-1 {
				break
			}
			b.WriteRune(r)
		}
	}
	c := s.term.Cursor()
	b.WriteString("\x1b[0m\x1b[" + strconv.Itoa(c.Y+1) + ";" + strconv.Itoa(c.X+1) + "H")
	if s.term.CursorVisible() {
		b.WriteString("\x1b[?25h")
	} else {
		b.WriteString("\x1b[?25l")
	}
	return b.Bytes()
}

// writeSGR writes the Select Graphic Rendition sequence for g's look.
func writeSGR(b *bytes.Buffer, g vt10x.Glyph) {
	b.WriteString("\x1b[0")
	for _, a := range []struct {
		bit  int16
		code string
	}{{glyphBold, "1"}, {glyphItalic, "3"}, {glyphUnderline, "4"}, {glyphBlink, "5"}, {glyphReverse, "7"}} {
		if g.Mode&a.bit != 0 {
			b.WriteString(";" + a.code)
		}
	}
	writeColor(b, g.FG, vt10x.DefaultFG, 30, 90, "38")
	writeColor(b, g.BG, vt10x.DefaultBG, 40, 100, "48")
	b.WriteByte('m')
}

// writeColor writes one colour parameter: base+n for the 8 ANSI colours,
// bright+n-8 for the bright ones, ext;5;n for the 256-colour palette and
// ext;2;r;g;b for true colour.
func writeColor(b *bytes.Buffer, c, def vt10x.Color, base, bright int, ext string) {
	switch {
	case c == def:
	case c < 8:
		b.WriteString(";" + strconv.Itoa(base+int(c)))
	case c < 16:
		b.WriteString(";" + strconv.Itoa(bright+int(c)-8))
	case c < 256:
		b.WriteString(";" + ext + ";5;" + strconv.Itoa(int(c)))
	case c < 1<<24:
		b.WriteString(";" + ext + ";2;" + strconv.Itoa(int(c>>16&0xff)) + ";" + strconv.Itoa(int(c>>8&0xff)) + ";" + strconv.Itoa(int(c&0xff)))
	}
}
