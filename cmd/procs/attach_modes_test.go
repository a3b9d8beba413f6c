package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDetachLeavesTheAlternateScreen: a program that entered the
// alternate screen (even with the sequence cut between two reads) and is
// still in it when we detach is taken out of it, and the cursor shown;
// one that left it, or never entered it, is not switched again.
func TestDetachLeavesTheAlternateScreen(t *testing.T) {
	cases := []struct {
		name   string
		chunks []string
		alt    bool
	}{
		{"never", []string{"hello\r\n", "\x1b[?25l"}, false},
		{"entered", []string{"\x1b[?1049h\x1b[?25l", "drawing"}, true},
		{"entered, cut in two", []string{"x\x1b[?10", "49hdrawing"}, true},
		{"entered and left", []string{"\x1b[?1049h", "y", "\x1b[?1049l"}, false},
		{"left and entered again", []string{"\x1b[?1049h\x1b[?1049l\x1b[?47h"}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var term bytes.Buffer
			tr := &modeTracker{w: &term}
			var want string
			for _, c := range tc.chunks {
				_, err := tr.Write([]byte(c))
				assert.NoError(t, err)
				want += c
			}
			assert.Equal(t, want, term.String(), "output passes unchanged")
			restore := tr.restore()
			assert.Equal(t, tc.alt, bytes.HasPrefix([]byte(restore), []byte("\x1b[?1049l")), "%q", restore)
			assert.Contains(t, restore, "\x1b[?25h", "the cursor shows again")
			assert.Contains(t, restore, "\x1b[?2004l", "bracketed paste is off")
			assert.Contains(t, restore, "\x1b[?1000l", "mouse reports are off")
		})
	}
}
