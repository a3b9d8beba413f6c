package main

import (
	"bytes"
	"io"
)

// altScreenOn and altScreenOff are the sequences that enter and leave the
// alternate screen (1049, and the older 1047 and 47).
var (
	altScreenOn  = [][]byte{[]byte("\x1b[?1049h"), []byte("\x1b[?1047h"), []byte("\x1b[?47h")}
	altScreenOff = [][]byte{[]byte("\x1b[?1049l"), []byte("\x1b[?1047l"), []byte("\x1b[?47l")}
)

// resetModes turns off what a full-screen program may have turned on in
// this terminal and not off, since it is still running when we detach:
// colours, a hidden cursor, mouse reports, focus reports, bracketed paste,
// application cursor keys and keypad. Each is harmless when off already.
const resetModes = "\x1b[0m\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1004l\x1b[?2004l\x1b[?1l\x1b>"

// modeTracker passes a process's output on to the terminal and notes
// whether it left the terminal in the alternate screen, so detaching can
// leave it: else the shell's prompt would land on the program's screen,
// and the terminal's own history stay hidden.
type modeTracker struct {
	w         io.Writer
	altScreen bool
	// tail is the end of the last write, where a sequence may be cut.
	tail []byte
}

// Write notes the last alternate screen switch in p and writes p on.
func (t *modeTracker) Write(p []byte) (int, error) {
	seen := append(t.tail, p...)
	on, off := lastIndexOfAny(seen, altScreenOn), lastIndexOfAny(seen, altScreenOff)
	if on >= 0 || off >= 0 {
		t.altScreen = on > off
	}
	const keep = len("\x1b[?1049h") - 1
	t.tail = bytes.Clone(seen[max(0, len(seen)-keep):])
	return t.w.Write(p)
}

// restore is what to write on detaching: leave the alternate screen if
// the program is in it, and reset the modes.
func (t *modeTracker) restore() string {
	if t.altScreen {
		return "\x1b[?1049l" + resetModes
	}
	return resetModes
}

// lastIndexOfAny is the greatest index in s of any of seps, -1 if none.
func lastIndexOfAny(s []byte, seps [][]byte) int {
	last := -1
	for _, sep := range seps {
		last = max(last, bytes.LastIndex(s, sep))
	}
	return last
}
