package rules

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// StripText returns raw as patterns see it: ANSI escape sequences and
// control characters other than tab removed, invalid UTF-8 replaced by U+FFFD.
func StripText(raw []byte) string {
	if isPlain(raw) {
		// The common log line: no escapes, nothing to clean, one allocation.
		return string(raw)
	}
	text := string(raw)
	if !utf8.ValidString(text) {
		// Before stripping: the ANSI parser would silently drop the bytes.
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	return strings.Map(dropControl, ansi.Strip(text))
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

// dropControl removes the C0 and C1 controls ansi.Strip keeps (BEL,
// backspace, ...): they are invisible and would only confuse patterns.
func dropControl(r rune) rune {
	if r == '\t' {
		return r
	}
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
		return -1
	}
	return r
}
