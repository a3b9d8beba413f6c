package compose

import "github.com/charmbracelet/x/ansi"

// keepColors returns a line of output as the terminal printer may show it
// among other processes' lines: colours kept, but nothing that moves the
// cursor, clears the screen or changes modes, which a TUI (an agent CLI)
// writes all the time, and some reporters on a pipe too, and which would
// wreck the shared terminal. Tabs stay; other control characters go.
func keepColors(raw []byte) []byte {
	out := make([]byte, 0, len(raw))
	eachTerminalPart(raw, func(part []byte, kind partKind) {
		if kind != partControl {
			out = append(out, part...)
		}
	})
	return out
}

// keysOnly reports whether input holds no text: only control characters
// and escape sequences (Ctrl-C, Esc, arrows, Enter).
func keysOnly(input []byte) bool {
	text := false
	eachTerminalPart(input, func(_ []byte, kind partKind) {
		text = text || kind == partText
	})
	return !text
}

// partKind says what a part of terminal output is.
type partKind int

const (
	partText    partKind = iota // printable text, or a tab
	partColour                  // an SGR sequence: colours and attributes
	partControl                 // any other escape sequence or control character
)

// eachTerminalPart calls f with each part of raw, as a terminal parses it
// (the ansi package's decoder): text, colour sequences, and the rest.
func eachTerminalPart(raw []byte, f func(part []byte, kind partKind)) {
	var state byte
	for len(raw) > 0 {
		seq, width, n, next := ansi.DecodeSequence(raw, state, nil)
		state, raw = next, raw[n:]
		switch {
		case isText(seq, width):
			f(seq, partText)
		case isSGR(seq):
			f(seq, partColour)
		default:
			f(seq, partControl)
		}
	}
}

// isText says a decoded part is text: a character of some width, a
// zero-width one (its UTF-8 begins with a lead byte), or a tab; not a
// control character, C0 or C1, nor the start of an escape.
func isText(seq []byte, width int) bool {
	if width > 0 {
		return true
	}
	if len(seq) == 0 {
		return false
	}
	c := seq[0]
	return c == '\t' || c >= 0x20 && c < 0x7f || c >= 0xc0
}

// isSGR says a whole CSI sequence, as the decoder cut it, sets colours and
// attributes ("ESC[1;32m", "ESC[38:5:200m"): its final byte is m, and it
// has parameters alone, no private marker nor intermediate byte.
func isSGR(seq []byte) bool {
	if !ansi.HasCsiPrefix(seq) || seq[len(seq)-1] != 'm' {
		return false
	}
	start := 2 // ESC [
	if seq[0] != ansi.ESC {
		start = 1 // the 8-bit CSI
	}
	for _, c := range seq[start : len(seq)-1] {
		if (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}
