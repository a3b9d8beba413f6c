package tui

import (
	"time"

	"github.com/procsdev/procs/compose/control"
)

// maxLogLines is how many lines of each process the dashboard keeps for
// scrollback; the log file keeps them all.
const maxLogLines = 5000

// logLine is one kept line of output.
type logLine struct {
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
}

// add appends a line, dropping the oldest past maxLogLines.
func (b *logBuffer) add(l logLine) {
	b.lines = append(b.lines, l)
	if over := len(b.lines) - maxLogLines; over > 0 {
		b.lines = append(b.lines[:0:0], b.lines[over:]...)
	}
}

// prepend puts the lines procs kept before the live ones, leaving out
// those the live stream already delivered.
func (b *logBuffer) prepend(history []control.LogLine) {
	var first time.Time
	if len(b.lines) > 0 {
		first = b.lines[0].time
	}
	merged := make([]logLine, 0, len(history)+len(b.lines))
	for _, h := range history {
		if !first.IsZero() && !h.Time.Before(first) {
			break
		}
		merged = append(merged, logLine{time: h.Time, stderr: h.Stream == "stderr", text: h.Line})
	}
	b.lines = append(merged, b.lines...)
	if over := len(b.lines) - maxLogLines; over > 0 {
		b.lines = b.lines[over:]
	}
	b.loaded = true
}
