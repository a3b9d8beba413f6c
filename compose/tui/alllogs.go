package tui

import (
	"cmp"
	"slices"
)

// allLog is the log of every process, interleaved in the order procs
// received the lines, for the pane's "all processes" view (key l).
type allLog struct {
	lines []logLine
}

// add appends a live line, which comes after every line kept (the event
// stream is in order), dropping the oldest past maxLogLines as logBuffer does.
func (a *allLog) add(l logLine) {
	a.lines = append(a.lines, l)
	if len(a.lines) >= 2*maxLogLines {
		a.lines = append(a.lines[:0:0], a.lines[len(a.lines)-maxLogLines:]...)
	}
}

// rebuild merges every process's scrollback by time: a history read
// after connecting brings lines older than the live ones kept.
func (a *allLog) rebuild(buffers map[string]*logBuffer) {
	var merged []logLine
	for _, b := range buffers {
		merged = append(merged, b.recent()...)
	}
	// Stable: lines of one process at the same instant keep their order.
	slices.SortStableFunc(merged, func(x, y logLine) int {
		if c := x.time.Compare(y.time); c != 0 {
			return c
		}
		return cmp.Compare(x.proc, y.proc)
	})
	a.lines = merged[max(0, len(merged)-maxLogLines):]
}

// recent is the last maxLogLines lines.
func (a *allLog) recent() []logLine {
	return a.lines[max(0, len(a.lines)-maxLogLines):]
}
