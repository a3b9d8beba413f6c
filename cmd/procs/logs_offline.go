package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// offlineLogs prints the last lines (every line when fl.lines < 0) of each
// process's .procs/logs/NAME.log, for `procs logs` when no procs runs:
// the files keep the output of the last procs that ran here, and the
// notes procs wrote among it (where runs began, lines lost).
func (a *app) offlineLogs(names []string, fl logsFlags) error {
	dir := filepath.Join(a.projectDir(), ".procs", "logs")
	if fl.timestamps && !fl.json.on() {
		return withCode(exitUsage, errors.New("--timestamps needs a running procs: the files in "+relPath(dir)+" keep no time for each line (start procs, or leave out -t)"))
	}
	if fl.since != "" {
		// Without a time per line there is nothing to compare --since
		// with: printing every line would answer another question.
		return withCode(exitUsage, errors.New("--since needs a running procs: the files in "+relPath(dir)+" keep no time for each line (start procs, or leave out --since)"))
	}
	shown := names
	if len(shown) == 0 {
		shown = loggedNames(dir)
	}
	if len(shown) == 0 {
		return withCode(exitNoProcs, fmt.Errorf("%w, and no logs in %s", errNoProcs, relPath(dir)))
	}
	view := newLogView(a.stdout, shown, fl.prefixed(shown), false, fl.json)
	view.learnAgentsOffline(func() (*config.Config, error) {
		return config.Load(config.LoadOptions{File: a.file, Dir: a.projectDir(), Environ: a.environ, Set: a.set})
	})
	for _, name := range shown {
		lines, err := fileLines(filepath.Join(dir, name+".log"))
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("no procs running and no log of %q in %s", name, relPath(dir)))
		}
		if err := showFileLines(view, name, lines, tailStart(lines, fl.lines)); err != nil {
			return err
		}
	}
	return nil
}

// loggedNames are the processes with a log in dir, sorted.
func loggedNames(dir string) []string {
	var names []string
	files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".log"); name != "procs" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// showFileLines shows the lines of name's log file from start on: its
// notes as separators and notes of procs, the rest as lines of the run
// the last run note before them began (0 before any), cleaned as the
// running procs cleans them (outputLines).
func showFileLines(view *logView, name string, lines []string, start int) error {
	run := 0
	output := newOutputLines()
	for i, line := range lines {
		note, isNote := compose.ParseLogNote(line)
		if i < start {
			if note.Run > 0 {
				run = note.Run
			}
			continue
		}
		var err error
		switch {
		case !isNote:
			err = output.show(view, name, run, line)
		case note.Run > 0:
			run = note.Run
			err = view.runStarted(name, run, note.Time)
		default:
			err = view.line(control.LogLine{Proc: name, Run: run, Time: note.Time, Stream: procsStream, Line: note.Text})
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// outputLines turns a line of a log file, which keeps the bytes the
// process wrote, into the lines the running procs shows for them: split
// by the splitter its readers use, with the same cap on a line, they lose
// their escape sequences and controls, keep the last state of a \r
// redraw, and have invalid bytes replaced; Raw keeps the bytes when they
// differ, as the API gives them.
type outputLines struct {
	splitter *rules.Splitter
	lines    []control.LogLine
}

// newOutputLines prepares the splitter of one log.
func newOutputLines() *outputLines {
	o := &outputLines{}
	o.splitter = rules.NewSplitter(rules.StreamStdout, rules.DefaultMaxLine, func(l rules.Line) {
		raw := string(l.Raw)
		switch {
		case raw == l.Text:
			raw = ""
		case !utf8.ValidString(raw):
			// As the API's JSON gives it: each invalid byte a U+FFFD.
			raw = string([]rune(raw))
		}
		o.lines = append(o.lines, control.LogLine{Line: l.Text, Raw: raw})
	})
	return o
}

// show shows line, a line of name's log file without its \n, as lines of
// run.
func (o *outputLines) show(view *logView, name string, run int, line string) error {
	o.lines = o.lines[:0]
	_, _ = o.splitter.Write([]byte(line + "\n"))
	for _, l := range o.lines {
		l.Proc, l.Run = name, run
		if err := view.line(l); err != nil {
			return err
		}
	}
	return nil
}

// fileLines returns the lines of a log file.
func fileLines(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSuffix(string(data), "\n")
	if text == "" {
		return nil, nil
	}
	return strings.Split(text, "\n"), nil
}

// tailStart is where the last n lines of the process begin among lines
// (0 when n < 0: all): the notes of procs do not count.
func tailStart(lines []string, n int) int {
	if n < 0 {
		return 0
	}
	start, count := len(lines), 0
	for start > 0 && count < n {
		start--
		if _, isNote := compose.ParseLogNote(lines[start]); !isNote {
			count++
		}
	}
	return start
}
