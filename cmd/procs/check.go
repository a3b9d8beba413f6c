package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
)

// checkResult is what `procs check --json` prints.
type checkResult struct {
	File      string       `json:"file,omitempty"`
	OK        bool         `json:"ok"`
	Processes int          `json:"processes"`
	Errors    []checkError `json:"errors"`
}

// checkError is one config problem, located.
type checkError struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
	// Text is the whole error as procs check prints it.
	Text string `json:"text"`
}

func (a *app) checkCommand() *cobra.Command {
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "check",
		Short: "Validate procs.yaml and report every problem with file:line:col",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if jsonOut.on() {
				return a.checkJSON(jsonOut)
			}
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			warnConfig(a.stderr, "", cfg)
			fmt.Fprintf(a.stdout, "%s: %s, OK\n", a.displayPath(cfg.File), plural(len(cfg.Procs), "process", "processes"))
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, `print {"ok", "processes", "errors": [{file, line, col, path, message}]}`)
	return cmd
}

// checkJSON validates and prints the outcome as JSON; exit 2 on errors.
func (a *app) checkJSON(jsonOut *jsonOutput) error {
	cfg, err := config.Load(config.LoadOptions{File: a.file, Environ: a.environ, Set: a.set})
	res := checkResult{Errors: []checkError{}}
	var cfgErrs config.ConfigErrors
	switch {
	case err == nil:
		res.File, res.OK, res.Processes = a.displayPath(cfg.File), true, len(cfg.Procs)
	case errors.As(err, &cfgErrs):
		res.Errors = checkErrors(cfgErrs)
	default:
		res.Errors = append(res.Errors, checkError{Message: err.Error(), Text: err.Error()})
	}
	if printErr := jsonOut.print(res); printErr != nil {
		return printErr
	}
	if !res.OK {
		return silentExit(exitUsage)
	}
	return nil
}

// checkErrors are config errors as procs check --json gives them.
func checkErrors(errs config.ConfigErrors) []checkError {
	out := make([]checkError, 0, len(errs))
	for _, e := range errs {
		out = append(out, checkError{File: e.File, Line: e.Line, Col: e.Col, Path: e.Path, Message: e.Msg, Text: e.Error()})
	}
	return out
}

// plural says "1 process" or "2 processes".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// displayPath shows path relative to the working folder when it is inside it.
func (a *app) displayPath(path string) string {
	rel, err := filepath.Rel(a.workDir(), path)
	if err != nil || len(rel) >= 2 && rel[:2] == ".." {
		return path
	}
	return rel
}

// warnConfig prints what in cfg does not stop procs but is likely a
// mistake: a ${VAR} that is not set, one the shell would split, a limit
// this machine cannot enforce. procs check says it, and so does procs up,
// as docker compose up does: an unset variable that empties a port or a
// path shows first as a failure far from its cause.
func warnConfig(w io.Writer, prefix string, cfg *config.Config) {
	for _, warning := range cfg.Warnings {
		fmt.Fprintf(w, "%swarning: %s\n", prefix, warning.Error())
	}
	warnUnenforcedLimits(w, prefix, cfg)
}
