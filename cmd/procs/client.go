package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// errNoProcs is what client commands say when nothing answers (exit 3).
var errNoProcs = errors.New("no procs running in this folder (start one with `procs up`)")

// projectDir is the folder whose procs the client commands talk to: the
// folder of -f (or $PROCS_FILE), else the nearest folder up from the
// current one holding procs.yaml, procs.yml or .procs/, else the current folder. It
// needs no valid config, so a broken procs.yaml never hides a running procs.
func (a *app) projectDir() string {
	file := a.file
	if file == "" {
		file = a.getenv("PROCS_FILE")
	}
	if file != "" {
		if abs, err := filepath.Abs(file); err == nil {
			return filepath.Dir(abs)
		}
		return filepath.Dir(file)
	}
	start := a.workDir()
	for dir := start; ; {
		for _, marker := range []string{"procs.yaml", "procs.yml", ".procs"} {
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return start
		}
		dir = parent
	}
}

// clientSession is a client command's connection to the procs of the
// project, and the context Ctrl-C or SIGTERM cancels for the command.
type clientSession struct {
	client *control.Client
	ctx    context.Context
	// stop releases the signal handlers.
	stop func()
}

// close releases the connection and the signal handlers.
func (s *clientSession) close() {
	s.stop()
	s.client.Close()
}

// connectFor is connect for a request that waits up to wait: its context
// ends requestSlack after that, so a procs that never answers cannot hold
// the command longer.
func (a *app) connectFor(wait time.Duration) (*clientSession, error) {
	sess, err := a.connect()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(sess.ctx, wait+requestSlack)
	stop := sess.stop
	sess.ctx, sess.stop = ctx, func() { cancel(); stop() }
	return sess, nil
}

// connect dials the procs of the project (exit code 3 when none answers).
// Signals are caught before dialing, so even a dial to a stopped procs
// ends on Ctrl-C, and the command then exits saying it was interrupted.
func (a *app) connect() (*clientSession, error) {
	ctx, stop := signalContext()
	a.signals = ctx
	c, err := control.DialContext(ctx, a.projectDir())
	if err != nil {
		stop()
		return nil, a.clientError(err)
	}
	return &clientSession{client: c, ctx: ctx, stop: stop}, nil
}

// clientError maps an API error to the exit code contract: nothing running
// 3, an unknown name or bad request 2, anything else 1.
func (a *app) clientError(err error) error {
	var apiErr *control.APIError
	switch {
	case err == nil:
		return nil
	case interruption(a.signals) != nil:
		return a.interrupted(err)
	case errors.Is(err, control.ErrPermission):
		return withCode(exitFailure, relativePermission(err))
	case errors.Is(err, control.ErrNotRunning):
		return withCode(exitNoProcs, errNoProcs)
	case errors.Is(err, compose.ErrUnknownProcess):
		return withCode(exitUsage, err)
	case errors.As(err, &apiErr) && apiErr.Status/100 == 4 && apiErr.Status != http.StatusConflict:
		return withCode(exitUsage, err)
	}
	return withCode(exitFailure, err)
}

// relativePermission is err with the path of its *control.PermissionError
// as the user knows it, relative to where procs runs.
func relativePermission(err error) error {
	var perm *control.PermissionError
	if !errors.As(err, &perm) {
		return err
	}
	rel := *perm
	rel.Path = relPath(perm.Path)
	return &rel
}

// printResult writes a structured result for people: one line saying how
// it ended and, when it failed, its last log lines. "waited" is this
// command's wait, which may begin after the run did (up -d --wait) or
// before (a restart, a dependency's start): the message's "ready in" is
// the run's own start-up.
func (a *app) printResult(res rules.Result) {
	if res.Success {
		fmt.Fprintf(a.stdout, "%s %s (run %d, waited %dms): %s\n", res.Name, res.State, res.Run, res.DurationMs, res.Message)
		return
	}
	fmt.Fprintf(a.stderr, "%s %s (run %d): %s\n", res.Name, res.State, res.Run, res.Message)
	if len(res.Logs) > 0 {
		fmt.Fprintf(a.stderr, "last lines of %s:\n", res.Name)
		for _, line := range res.Logs {
			fmt.Fprintf(a.stderr, "  | %s\n", line)
		}
	}
}
