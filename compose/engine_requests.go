package compose

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/rules"
)

// Start starts a stopped, failed or completed process (and lets a blocked
// one wait for its dependencies again). It returns the run to wait for.
// A task with args runs with their defaults (see StartArgs).
func (e *Engine) Start(name string) (int, error) {
	return e.StartArgs(name, nil)
}

// Stop stops a process; it is not restarted by its policy. A task that
// completed has no run to stop and stays completed.
func (e *Engine) Stop(name string) (int, error) {
	var run int
	var err error
	if doErr := e.do(func() { run, err = e.life.Stop(name) }); doErr != nil {
		return 0, doErr
	}
	return run, err
}

// Restart stops the process (whole group) and starts a new run; dependents
// declaring restart: true follow once it is ready. Concurrent restarts of
// one process coalesce into one. It returns the run to wait for.
func (e *Engine) Restart(name string) (int, error) {
	var run int
	var err error
	if doErr := e.do(func() {
		targets, restartErr := e.life.Restart([]string{name}, false)
		if err = restartErr; err == nil {
			run = targets[0].Run
		}
	}); doErr != nil {
		return 0, doErr
	}
	return run, apiError(err)
}

// apiError is an error of the machine as the API gives it: its
// ErrShuttingDown is wire's (the two packages are leaves that do not
// import each other).
func apiError(err error) error {
	if errors.Is(err, lifecycle.ErrShuttingDown) {
		return ErrShuttingDown
	}
	return err
}

// Logs returns the last n lines (all kept lines when n <= 0) of a process.
func (e *Engine) Logs(name string, n int) ([]rules.Line, error) {
	ring, err := e.ringOf(name)
	if err != nil {
		return nil, err
	}
	if n <= 0 {
		n = e.opts.RingSize
	}
	return ring.Last(n), nil
}

// LinesNotKept is how many of name's lines are no longer in memory (Logs
// returns the newer ones): only its log file (LogPath) has them.
func (e *Engine) LinesNotKept(name string) (int, error) {
	ring, err := e.ringOf(name)
	if err != nil {
		return 0, err
	}
	return ring.Dropped(), nil
}

// ringOf is the ring of name's recent lines.
func (e *Engine) ringOf(name string) (*rules.Ring, error) {
	var ring *rules.Ring
	err := e.onProc(name, func(ps *procState) error {
		ring = ps.ring
		return nil
	})
	return ring, err
}

// Wait blocks until the process reaches one of the target states in run
// minRun or later, fails, or ctx ends, and returns the structured result.
func (e *Engine) Wait(ctx context.Context, name string, targets []rules.State, minRun int) (rules.Result, error) {
	w := &waiter{name: name, targets: targets, minRun: minRun, began: time.Now(), done: make(chan rules.Result, 1)}
	var err error
	if doErr := e.do(func() { err = e.addWaiter(w) }); doErr != nil {
		return rules.Result{Name: name, State: rules.StateStopped, Message: doErr.Error()}, doErr
	}
	if err != nil {
		return rules.Result{}, err
	}
	select {
	case res := <-w.done:
		e.takeScreenNow(&res, minRun)
		return res, nil
	case <-ctx.Done():
	}
	// Given up: the machine answers with the process as it is now, unless
	// the wait was answered in the meantime, whose answer stands. An engine
	// that has ended takes no request, but it answered every wait as it
	// ended (lifecycle's Close, delivered before Run returns): that answer
	// is already here.
	note := fmt.Sprintf("timed out after %s waiting for %s", time.Since(w.began).Round(time.Millisecond), joinStates(targets))
	if e.do(func() { e.life.GiveUp(w.id, note) }) != nil {
		return answeredAsTheEngineEnded(w, name)
	}
	select {
	case res := <-w.done:
		e.takeScreenNow(&res, minRun)
		return res, nil
	case <-e.stopped:
		return answeredAsTheEngineEnded(w, name)
	}
}

// answeredAsTheEngineEnded returns the answer the ended engine gave w, or
// ErrShuttingDown if there is none (the engine ended before it took w).
func answeredAsTheEngineEnded(w *waiter, name string) (rules.Result, error) {
	select {
	case res := <-w.done:
		return res, nil
	default:
		return rules.Result{Name: name, Message: ErrShuttingDown.Error()}, ErrShuttingDown
	}
}
