package rules

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// stripANSI must agree with ansi.Strip, apart from the controls it drops.
func FuzzStripMatchesAnsi(f *testing.F) {
	for _, seed := range []string{
		"\x1b[32m\x1b[1mVITE\x1b[22m v5.4.21\x1b[39m  \x1b[2mready in \x1b[0m",
		"\x1b]8;;http://x\x07link\x1b]8;;\x07 café ➜ \t tab",
		"\x1b[1;1H\x1b[0J", "plain", "bell\x07 back\b \u0085nel",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !utf8.Valid(raw) {
			if got := StripText(raw); !utf8.ValidString(got) {
				t.Fatalf("invalid UTF-8 out: %q", got)
			}
			return
		}
		want := strings.Map(func(r rune) rune {
			if r == '\t' || !(r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) {
				return r
			}
			return -1
		}, ansi.Strip(string(raw)))
		if got := StripText(raw); got != want {
			t.Fatalf("StripText(%q) = %q, ansi.Strip gives %q", raw, got, want)
		}
	})
}
