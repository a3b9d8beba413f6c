package main

import (
	"fmt"
	"io"
	"time"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules/agentstream"
)

// timestampLayout is RFC 3339 with milliseconds, the precision of
// docker compose logs -t that a reader can still take in at a glance.
const timestampLayout = "2006-01-02T15:04:05.000Z07:00"

// procsStream is the stream of procs' own notes among the lines of a
// process (lines lost, lines dropped): the JSON of `procs logs` tells
// them from the process's output by it.
const procsStream = "procs"

// logView shows the lines `procs logs` reads, from the running procs or
// from .procs/logs: `name | text` with the names padded to the longest
// one shown, as procs up prints them, optionally timed, and a separator
// where a process's run changes; or, with --json, each line as it is.
type logView struct {
	w          io.Writer
	json       *jsonOutput
	prefixed   bool
	timestamps bool
	width      int
	// runs tells where a new run of a process begins.
	runs control.RunSeparators
	// agents are the processes in an agent's JSON mode, by protocol
	// (logs_agent.go).
	agents map[string]agentstream.Protocol
}

// newLogView prepares the view of the lines of names.
func newLogView(w io.Writer, names []string, prefixed, timestamps bool, jsonOut *jsonOutput) *logView {
	v := &logView{w: w, json: jsonOut, prefixed: prefixed, timestamps: timestamps}
	for _, name := range names {
		v.width = max(v.width, len(name))
	}
	return v
}

// line shows one line; a line of a run other than the last shown of its
// process is preceded by a separator. In JSON the run is a field of every
// line, so there is no separator record to skip.
func (v *logView) line(l control.LogLine) error {
	if v.json.on() {
		return v.json.print(l)
	}
	if l.Stream == procsStream {
		return v.note(l)
	}
	if v.runs.Line(l.Proc, l.Run) {
		// The run's start is not among the lines: its first line's time
		// stands for it.
		if err := v.separator(l.Proc, l.Run, l.Time); err != nil {
			return err
		}
	}
	return v.printLine(l)
}

// runStarted marks where the log file says a run began: a separator when
// lines of the process were shown before it.
func (v *logView) runStarted(proc string, run int, at time.Time) error {
	if !v.runs.Started(proc, run) || v.json.on() {
		return nil
	}
	return v.separator(proc, run, at)
}

// separator is the line between two runs of a process.
func (v *logView) separator(proc string, run int, at time.Time) error {
	return v.print(proc, at, control.RunSeparator(proc, run, v.prefixed))
}

// note shows procs' own line about a process ("procs | web: 12 lines
// lost (...)"), or about the stream itself when its Proc is procs.
func (v *logView) note(l control.LogLine) error {
	text := l.Line
	if l.Proc != "" && l.Proc != procsStream {
		text = l.Proc + ": " + text
	}
	if !v.prefixed {
		text = "procs: " + text
	}
	return v.print(procsStream, l.Time, text)
}

// print writes one line with the prefix and time the flags ask for.
func (v *logView) print(proc string, at time.Time, text string) error {
	var prefix string
	if v.prefixed {
		v.width = max(v.width, len(proc))
		prefix = fmt.Sprintf("%-*s | ", v.width, proc)
	}
	if v.timestamps {
		prefix += at.Format(timestampLayout) + " "
	}
	_, err := fmt.Fprintf(v.w, "%s%s\n", prefix, text)
	return err
}
