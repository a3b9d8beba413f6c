package rules

import (
	"bytes"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi/parser"
)

// StripText returns raw as patterns see it: ANSI escape sequences and
// control characters other than tab removed, invalid UTF-8 replaced by U+FFFD.
func StripText(raw []byte) string {
	if isPlain(raw) {
		// The common log line: no escapes, nothing to clean, one allocation.
		return string(raw)
	}
	return string(stripANSI(nil, raw))
}

// isPlain reports whether raw is printable ASCII and tabs only.
func isPlain(raw []byte) bool {
	for _, b := range raw {
		if (b < 0x20 && b != '\t') || b >= 0x7f {
			return false
		}
	}
	return true
}

// stripANSI appends to dst the text of src without escape sequences and
// controls. It is ansi.Strip (same parser table, same states) writing into
// a buffer the splitter reuses, so a coloured line costs no more
// allocations than a plain one; it also drops the C0/C1 controls ansi.Strip
// keeps (BEL, backspace: invisible, they would only confuse patterns).
func stripANSI(dst, src []byte) []byte {
	if !utf8.Valid(src) {
		// Before stripping: the parser would silently drop the bytes.
		src = bytes.ToValidUTF8(src, []byte("\uFFFD"))
	}
	pstate := parser.GroundState
	runeStart, runeLen := 0, 0
	for i, b := range src {
		if pstate == parser.Utf8State {
			if i-runeStart+1 < runeLen {
				continue
			}
			// A whole rune: keep it unless it is a C1 control.
			if r, _ := utf8.DecodeRune(src[runeStart : i+1]); r < 0x80 || r >= 0xa0 {
				dst = append(dst, src[runeStart:i+1]...)
			}
			pstate = parser.GroundState
			continue
		}
		state, action := parser.Table.Transition(pstate, b)
		switch action {
		case parser.CollectAction:
			if state == parser.Utf8State {
				runeStart, runeLen = i, utf8RuneLen(b)
			}
		case parser.PrintAction:
			if b != 0x7f {
				dst = append(dst, b)
			}
		case parser.ExecuteAction:
			if b == '\t' {
				dst = append(dst, b)
			}
		}
		if pstate != parser.Utf8State {
			pstate = state
		}
	}
	return dst
}

// utf8RuneLen is the length of the UTF-8 sequence b starts (input is valid).
func utf8RuneLen(b byte) int {
	switch {
	case b >= 0xf0:
		return 4
	case b >= 0xe0:
		return 3
	}
	return 2
}
