package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/procsdev/procs/compose/control"
)

// offlineLogs prints the last n lines (every line when n < 0) of each
// process's .procs/logs/NAME.log, for `procs logs` when no procs runs:
// the files keep the output of the last procs that ran here.
func (a *app) offlineLogs(names []string, n int, jsonOut *jsonOutput) error {
	dir := filepath.Join(a.projectDir(), ".procs", "logs")
	if len(names) == 0 {
		files, _ := filepath.Glob(filepath.Join(dir, "*.log"))
		for _, f := range files {
			if name := strings.TrimSuffix(filepath.Base(f), ".log"); name != "procs" {
				names = append(names, name)
			}
		}
		slices.Sort(names)
	}
	if len(names) == 0 {
		return withCode(exitNoProcs, fmt.Errorf("%w, and no logs in %s", errNoProcs, relPath(dir)))
	}
	for _, name := range names {
		lines, err := lastFileLines(filepath.Join(dir, name+".log"), n)
		if err != nil {
			return withCode(exitUsage, fmt.Errorf("no procs running and no log of %q in %s", name, relPath(dir)))
		}
		for _, line := range lines {
			switch {
			case jsonOut.on():
				if err := jsonOut.print(control.LogLine{Proc: name, Line: line}); err != nil {
					return err
				}
			case len(names) > 1:
				fmt.Fprintf(a.stdout, "%s | %s\n", name, line)
			default:
				fmt.Fprintln(a.stdout, line)
			}
		}
	}
	return nil
}

// lastFileLines returns the last n lines of a log file (all when n < 0).
func lastFileLines(path string, n int) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	text := strings.TrimSuffix(string(data), "\n")
	if text == "" || n == 0 {
		return nil, nil
	}
	lines := strings.Split(text, "\n")
	if n > 0 && len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines, nil
}
