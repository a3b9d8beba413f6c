package webui

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Span is a run of text in one style, as the page draws it. Fg and Bg are
// "c0".."c15" (a theme colour, drawn by the page's CSS) or "#rrggbb".
type Span struct {
	Text      string `json:"t"`
	Fg        string `json:"fg,omitempty"`
	Bg        string `json:"bg,omitempty"`
	Bold      bool   `json:"b,omitempty"`
	Dim       bool   `json:"d,omitempty"`
	Italic    bool   `json:"i,omitempty"`
	Underline bool   `json:"u,omitempty"`
	Reverse   bool   `json:"r,omitempty"`
}

// style is the SGR state between spans.
type style struct {
	fg, bg                                string
	bold, dim, italic, underline, reverse bool
}

// Spans splits a line written with ANSI escapes into styled runs of text.
// Escapes other than colours and attributes (cursor moves, titles) and
// control characters are dropped.
func Spans(raw string) []Span {
	var (
		out   []Span
		cur   style
		text  strings.Builder
		state byte
	)
	p := ansi.NewParser()
	flush := func() {
		if text.Len() > 0 {
			out = append(out, cur.span(text.String()))
			text.Reset()
		}
	}
	for len(raw) > 0 {
		seq, width, n, newState := ansi.DecodeSequence(raw, state, p)
		state = newState
		raw = raw[n:]
		switch {
		case width > 0 || (len(seq) > 0 && seq[0] >= 0x20 && seq[0] != 0x7f && seq[0] != 0x1b):
			text.WriteString(seq)
		case seq == "\t":
			text.WriteString("\t")
		case isSGR(seq, ansi.Cmd(p.Command())):
			flush()
			cur.apply(p.Params())
		}
	}
	flush()
	return out
}

func (s style) span(text string) Span {
	return Span{Text: text, Fg: s.fg, Bg: s.bg, Bold: s.bold, Dim: s.dim,
		Italic: s.italic, Underline: s.underline, Reverse: s.reverse}
}

// apply changes the style by one SGR sequence's parameters.
func (s *style) apply(params ansi.Params) {
	if len(params) == 0 {
		*s = style{}
		return
	}
	for i := 0; i < len(params); i++ {
		code := params[i].Param(0)
		switch {
		case code == 0:
			*s = style{}
		case code == 1:
			s.bold = true
		case code == 2:
			s.dim = true
		case code == 3:
			s.italic = true
		case code == 4:
			s.underline = true
		case code == 7:
			s.reverse = true
		case code == 22:
			s.bold, s.dim = false, false
		case code == 23:
			s.italic = false
		case code == 24:
			s.underline = false
		case code == 27:
			s.reverse = false
		case code >= 30 && code <= 37:
			s.fg = fmt.Sprintf("c%d", code-30)
		case code >= 90 && code <= 97:
			s.fg = fmt.Sprintf("c%d", code-90+8)
		case code >= 40 && code <= 47:
			s.bg = fmt.Sprintf("c%d", code-40)
		case code >= 100 && code <= 107:
			s.bg = fmt.Sprintf("c%d", code-100+8)
		case code == 39:
			s.fg = ""
		case code == 49:
			s.bg = ""
		case code == 38 || code == 48 || code == 58:
			var c color.Color
			n := ansi.ReadStyleColor(params[i:], &c)
			if n == 0 {
				return
			}
			i += n - 1
			switch code {
			case 38:
				s.fg = colorName(c)
			case 48:
				s.bg = colorName(c)
			}
		}
	}
}

// colorName is a theme class for the 16 basic colours, else "#rrggbb".
func colorName(c color.Color) string {
	switch v := c.(type) {
	case nil:
		return ""
	case ansi.IndexedColor:
		if v < 16 {
			return fmt.Sprintf("c%d", v)
		}
	case ansi.BasicColor:
		return fmt.Sprintf("c%d", v)
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// isSGR says whether seq sets colours or attributes (CSI ... m with no
// private prefix: CSI > 4 m is a keyboard mode, not a style).
func isSGR(seq string, cmd ansi.Cmd) bool {
	return ansi.HasCsiPrefix(seq) && cmd.Final() == 'm' && cmd.Prefix() == 0 && cmd.Intermediate() == 0
}
