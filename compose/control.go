package compose

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/procsdev/procs/rules"
)

// Down stops every process in reverse dependency order; Run then returns.
// A second Down kills what is still running.
func (e *Engine) Down() error {
	return e.do(func() { e.beginShutdown(EndDown) })
}

// Start starts a stopped, failed or completed process (and lets a blocked
// one wait for its dependencies again). It returns the run to wait for.
func (e *Engine) Start(name string) (int, error) {
	var run int
	err := e.onProc(name, func(ps *procState) error {
		if e.shuttingDown {
			return ErrShuttingDown
		}
		ps.wanted = true
		run = ps.run
		if !ps.running() && ps.backoff == nil {
			run = ps.run + 1
			e.setState(ps, rules.StatePending, rules.ReasonStart, "start requested")
		}
		return nil
	})
	return run, err
}

// Stop stops a process; it is not restarted by its policy.
func (e *Engine) Stop(name string) (int, error) {
	var run int
	err := e.onProc(name, func(ps *procState) error {
		run = ps.run
		ps.wanted, ps.restartPending = false, false
		if ps.backoff != nil {
			ps.backoff.Stop()
			ps.backoff = nil
		}
		switch {
		case ps.running() && ps.state != rules.StateStopping:
			e.stopRun(ps, true)
		case !ps.running():
			e.setState(ps, rules.StateStopped, rules.ReasonStopped, "stop requested")
		}
		return nil
	})
	return run, err
}

// Restart stops the process (whole group) and starts a new run; dependents
// declaring restart: true follow once it is ready. Concurrent restarts of
// one process coalesce into one. It returns the run to wait for.
func (e *Engine) Restart(name string) (int, error) {
	var run int
	err := e.onProc(name, func(ps *procState) error {
		if e.shuttingDown {
			return ErrShuttingDown
		}
		run = e.requestRestart(ps)
		return nil
	})
	return run, err
}

// requestRestart restarts ps and returns the run that will follow.
func (e *Engine) requestRestart(ps *procState) int {
	ps.wanted = true
	if ps.restartPending {
		return ps.run + 1 // coalesce with the restart already under way
	}
	if ps.backoff != nil {
		ps.backoff.Stop()
		ps.backoff = nil
	}
	ps.restarts = 0
	if ps.running() {
		ps.restartPending = true
		e.stopRun(ps, true)
		return ps.run + 1
	}
	ps.restartDependents, ps.noDeps = ps.run > 0 && !ps.noDeps, false
	e.setState(ps, rules.StatePending, rules.ReasonRestart, "restart requested")
	return ps.run + 1
}

// Logs returns the last n lines (all kept lines when n <= 0) of a process.
func (e *Engine) Logs(name string, n int) ([]rules.Line, error) {
	var ring *rules.Ring
	if err := e.do(func() {
		if ps, ok := e.procs[name]; ok {
			ring = ps.ring
		}
	}); err != nil {
		return nil, err
	}
	if ring == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownProcess, name)
	}
	if n <= 0 {
		n = e.opts.RingSize
	}
	return ring.Last(n), nil
}

// Wait blocks until the process reaches one of the target states in run
// minRun or later, fails, or ctx ends, and returns the structured result.
func (e *Engine) Wait(ctx context.Context, name string, targets []rules.State, minRun int) (rules.Result, error) {
	w := &waiter{name: name, targets: targets, minRun: minRun, began: time.Now(), done: make(chan rules.Result, 1)}
	var err error
	if doErr := e.do(func() {
		if _, err = e.lookup(name); err == nil {
			e.waiters = append(e.waiters, w)
			e.resolveWaiters()
		}
	}); doErr != nil {
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
		var res rules.Result
		if doErr := e.do(func() {
			e.waiters = slices.DeleteFunc(e.waiters, func(x *waiter) bool { return x == w })
			res = e.result(e.procs[name], w, false, "")
			res.Message = fmt.Sprintf("timed out after %s waiting for %s; %s", time.Since(w.began).Round(time.Millisecond), joinStates(targets), res.Message)
		}); doErr != nil {
			return rules.Result{Name: name, Message: doErr.Error()}, doErr
		}
		e.takeScreenNow(&res, minRun)
		return res, nil
	}
}
