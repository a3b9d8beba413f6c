package compose

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A log note is a line procs writes into a process's log file among its
// output, where the output alone would mislead: where a new run begins,
// and how many lines a failed write lost. It reads
//
//	[procs 2025-06-01T10:00:00.123+02:00] run 2
//	[procs 2025-06-01T10:00:05.456+02:00] 1234 lines lost (write .procs/logs/web.log: no space left on device)
//
// so a person reading the file sees it for what it is, and `procs logs`
// (reading the files when no procs runs) shows it as a separator or a
// note of procs instead of a line of the process.
const (
	logNoteOpen   = "[procs "
	logNoteLayout = "2006-01-02T15:04:05.000Z07:00"
	runNotePrefix = "run "
)

// LogNote is a note of procs read back from a log file.
type LogNote struct {
	// Time is when procs wrote it.
	Time time.Time
	// Run is the run that begins here, 0 for a note of another kind.
	Run int
	// Text is what the note says ("run 2", "12 lines lost (...)").
	Text string
}

// formatLogNote is the line of a note, newline included.
func formatLogNote(at time.Time, text string) []byte {
	return fmt.Appendf(nil, "%s%s] %s\n", logNoteOpen, at.Format(logNoteLayout), text)
}

// runNote is the text of the note that starts run.
func runNote(run int) string { return runNotePrefix + strconv.Itoa(run) }

// ParseLogNote reads a line of a log file as a note of procs; ok is false
// for a line of the process.
func ParseLogNote(line string) (note LogNote, ok bool) {
	rest, found := strings.CutPrefix(line, logNoteOpen)
	if !found {
		return LogNote{}, false
	}
	stamp, text, found := strings.Cut(rest, "] ")
	if !found {
		return LogNote{}, false
	}
	at, err := time.Parse(logNoteLayout, stamp)
	if err != nil {
		return LogNote{}, false
	}
	note = LogNote{Time: at, Text: text}
	if n, isRun := strings.CutPrefix(text, runNotePrefix); isRun {
		if run, err := strconv.Atoi(n); err == nil && run > 0 {
			note.Run = run
		}
	}
	return note, true
}
