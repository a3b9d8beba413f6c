package main

import (
	"errors"
	"fmt"
)

// Exit codes are a contract with scripts (ARCHITECTURE.md §7).
const (
	exitOK      = 0 // everything asked for succeeded
	exitFailure = 1 // a process failed or is not ready
	exitUsage   = 2 // bad command line or config
	exitNoProcs = 3 // no procs is running in this folder
	// exitInterrupted ends a command stopped by Ctrl-C, as shells expect.
	exitInterrupted = 130
)

// exitError carries the exit code a command ends with. Errors that are not
// exitErrors come from cobra's own parsing and are usage errors.
type exitError struct {
	code int
	err  error
	// quiet means the command already printed what the user needs.
	quiet bool
	// saidOnStderr means it printed err as text on stderr only: a command
	// given --json prints it on stdout too, as JSON.
	saidOnStderr bool
}

// saidOnStderr is err, printed on stderr already, ending the command
// with code: with --json it is printed on stdout too, as JSON.
func saidOnStderr(code int, err error) error {
	return &exitError{code: code, err: err, quiet: true, saidOnStderr: true}
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withCode wraps err so the command exits with code.
func withCode(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// silentExit ends the command with code without printing anything more.
func silentExit(code int) error {
	return &exitError{code: code, err: fmt.Errorf("exit %d", code), quiet: true}
}

// exitCodeOf maps an error returned by a command to the process exit code.
func exitCodeOf(err error) int {
	if err == nil {
		return exitOK
	}
	var ie *interruptedError
	if errors.As(err, &ie) {
		return ie.exitCode()
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return exitUsage
}
