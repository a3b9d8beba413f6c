package tui

import (
	"slices"
	"time"

	"github.com/procsdev/procs/compose/control"
)

// maxLogLines is how many lines of each process the dashboard keeps for
// scrollback; the log file keeps them all.
const maxLogLines = 5000

// logLine is one kept line of output.
type logLine struct {
	proc string // the process, for the log of every process
	// run is the run of the process that printed it (0: no longer known),
	// for the separator where a new run begins.
	run    int
	time   time.Time
	stderr bool
	text   string
}

// logBuffer is the scrollback of one process.
type logBuffer struct {
	lines []logLine
	// loaded says the recent lines procs kept before the dashboard
	// connected have been read.
	loaded bool
	// historyEnd is the time of the newest line read with the history, and
	// historyTail the texts of the lines at that time: live lines up to it
	// are already there.
	historyEnd  time.Time
	historyTail []string
}

// add appends a live line, dropping the oldest past maxLogLines (the copy
// happens once every maxLogLines lines, not at every line), and a line
// the history already brought; it says whether it kept the line.
func (b *logBuffer) add(l logLine) bool {
	if b.seen(l) {
		return false
	}
	b.lines = append(b.lines, l)
	if len(b.lines) >= 2*maxLogLines {
		b.lines = append(b.lines[:0:0], b.lines[len(b.lines)-maxLogLines:]...)
	}
	return true
}

// seen says whether the history read already holds a live line.
func (b *logBuffer) seen(l logLine) bool {
	switch {
	case b.historyEnd.IsZero() || l.time.After(b.historyEnd):
		return false
	case l.time.Before(b.historyEnd):
		return true
	}
	if i := slices.Index(b.historyTail, l.text); i >= 0 {
		b.historyTail = slices.Delete(b.historyTail, i, i+1)
		return true
	}
	return false
}

// recent is the last maxLogLines lines.
func (b *logBuffer) recent() []logLine {
	return b.lines[max(0, len(b.lines)-maxLogLines):]
}

// prepend puts the lines procs kept before the live ones that came
// while they were read, leaving out the live ones the history holds.
func (b *logBuffer) prepend(history []control.LogLine) {
	b.prependNamed("", history)
}

// prependNamed is prepend for the lines of the process name.
func (b *logBuffer) prependNamed(name string, history []control.LogLine) {
	live := b.lines
	b.lines = make([]logLine, 0, len(history)+len(live))
	for _, h := range history {
		b.lines = append(b.lines, logLine{proc: name, run: h.Run, time: h.Time, stderr: h.Stream == "stderr", text: h.Line})
		if h.Time.After(b.historyEnd) {
			b.historyEnd, b.historyTail = h.Time, nil
		}
		if h.Time.Equal(b.historyEnd) {
			b.historyTail = append(b.historyTail, h.Line)
		}
	}
	for _, l := range live {
		b.add(l)
	}
	if over := len(b.lines) - maxLogLines; over > 0 {
		b.lines = b.lines[over:]
	}
	b.loaded = true
}
