package control

import (
	"time"

	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// procsStream is the Stream of procs' own notes among the lines of a
// process (lines its log file lost, lines dropped for a slow reader).
const procsStream = "procs"

// runStart is where a run of a process began.
type runStart struct {
	run  int
	time time.Time
}

// logHistory is what the bus still keeps about the past of the lines in
// the rings, which hold no runs: where each run began, and the notes of
// lines a log file lost. The bus keeps its last state events only, so a
// line older than every start kept has no run (0).
type logHistory struct {
	starts map[string][]runStart
	notes  map[string][]LogLine
}

// newLogHistory reads the kept events, oldest first.
func newLogHistory(events []wire.Event) logHistory {
	h := logHistory{starts: map[string][]runStart{}, notes: map[string][]LogLine{}}
	for _, ev := range events {
		if note, ok := logNote(ev); ok {
			h.notes[ev.Proc] = append(h.notes[ev.Proc], note)
		}
		if ev.Type != wire.EventState || ev.To != rules.StateStarting {
			continue
		}
		// A run goes back to starting (a dev server rebuilding): its
		// first start is where its lines begin.
		starts := h.starts[ev.Proc]
		if len(starts) == 0 || starts[len(starts)-1].run != ev.Run {
			h.starts[ev.Proc] = append(starts, runStart{run: ev.Run, time: ev.Time})
		}
	}
	return h
}

// logNote is the note `procs logs` shows for an event, if any: a log file
// written again after a failure, with what it lost.
func logNote(ev wire.Event) (LogLine, bool) {
	if ev.Type != wire.EventInfo || ev.Reason != rules.ReasonLogResumed {
		return LogLine{}, false
	}
	return LogLine{Proc: ev.Proc, Run: ev.Run, Time: ev.Time, Stream: procsStream, Line: ev.Message}, true
}

// runAt is the run of proc that printed a line at t (0: not known).
func (h logHistory) runAt(proc string, t time.Time) int {
	run := 0
	for _, s := range h.starts[proc] {
		if s.time.After(t) {
			break
		}
		run = s.run
	}
	return run
}

// notesSince are the notes of proc from t on.
func (h logHistory) notesSince(proc string, t time.Time) []LogLine {
	var out []LogLine
	for _, n := range h.notes[proc] {
		if !n.Time.Before(t) {
			out = append(out, n)
		}
	}
	return out
}
