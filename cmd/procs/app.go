package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
)

// app holds what every command needs: the standard streams, the environment
// and the global flags. Commands get it instead of reaching for globals, so
// tests can run the CLI in-process.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	environ        []string

	// signals is the context Ctrl-C or SIGTERM cancels for the client
	// command running, nil before it connects.
	signals context.Context

	// Global flags.
	file    string
	set     []string
	noColor bool
}

func newApp(stdin io.Reader, stdout, stderr io.Writer, environ []string) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr, environ: environ}
}

// execute runs the command line and prints the error of a failed command:
// as JSON on stdout when the command was given --json.
func (a *app) execute(args []string) int {
	root := a.rootCommand()
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	err = a.interrupted(err)
	code := exitCodeOf(err)
	var e *exitError
	switch {
	case err == nil:
	case errors.As(err, &e) && e.quiet:
		// Said already, on stderr; a script reading --json gets it on
		// stdout too, where it reads the rest.
		if e.saidOnStderr && wantsJSON(cmd) {
			printJSONError(a.stdout, e.err)
		}
	case wantsJSON(cmd):
		// A script reading --json gets the error as JSON too, its
		// names a list, not Go's [a b].
		printJSONError(a.stdout, err)
	default:
		fmt.Fprintf(a.stderr, "procs: %v\n", err)
	}
	return code
}

// loadConfig loads procs.yaml with the layering of ARCHITECTURE.md §2. Config errors
// exit 2; a missing file exits 2 with a hint.
func (a *app) loadConfig() (*config.Config, error) {
	cfg, err := config.Load(config.LoadOptions{File: a.file, Environ: a.environ, Set: a.set})
	if err != nil {
		var cfgErrs config.ConfigErrors
		if errors.As(err, &cfgErrs) {
			for _, e := range cfgErrs {
				fmt.Fprintln(a.stderr, e.Error())
			}
			return nil, saidOnStderr(exitUsage, err)
		}
		if errors.Is(err, config.ErrNoConfig) {
			// The error already says to create one or pass -f; say how once.
			return nil, withCode(exitUsage, fmt.Errorf("%w (`procs init` writes one from what the folder holds)", err))
		}
		return nil, withCode(exitUsage, err)
	}
	return cfg, nil
}

// loadConfigToDetect is loadConfig for a command that detects the
// presets of the processes next (up, detect, export): the preset catalog
// is decoded on another core while the config loads, where the two took
// turns before the first process could start.
func (a *app) loadConfigToDetect() (*config.Config, error) {
	frameworks.Warm()
	return a.loadConfig()
}

// workDir is the folder procs works in.
func (a *app) workDir() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	return dir
}
