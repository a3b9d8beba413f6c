package compose

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"github.com/procsdev/procs/internal/statedir"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// ErrUnknownProcess is returned for a process name not in the config. It is
// config.ErrUnknownProcess, so errors.Is works whichever package returned it.
var ErrUnknownProcess = config.ErrUnknownProcess

// ErrShuttingDown is returned for requests that arrive while procs stops.
var ErrShuttingDown = errors.New("procs is shutting down")

// Options tunes an Engine.
type Options struct {
	// LogDir receives NAME.log for every process (default .procs/logs beside procs.yaml).
	LogDir string
	// Only starts just these processes and their dependencies (procs up NAME...).
	Only []string
	// Bus receives every event; a new one is made when nil.
	Bus *Bus
	// LogLimit is the size at which a log file is rotated where the config
	// (logs: maxSize) gives none (default 32 MiB).
	LogLimit int64
	// NoWatchdog skips the watchdog process (tests of the engine alone).
	NoWatchdog bool
	// RingSize is how many recent lines are kept in memory per process (default 1000).
	RingSize int
	// Load reads the config again from disk, for Reload and for restarts
	// that notice an edited definition; nil disables both.
	Load func() (*config.Config, error)
	// StayUp keeps Run going while nothing runs, as long as a process could
	// still be started or restarted: it ends on Down, on ctx, or once every
	// wanted process is a completed task.
	StayUp bool
	// ExitOnFailure begins shutdown at the first failure (procs up
	// --exit-on-failure, for CI).
	ExitOnFailure bool
	// UntilDown keeps Run going once every process has ended, until Down
	// or ctx: the background procs of `up -d` still shows them.
	UntilDown bool
}

// Engine runs the processes of a config. One goroutine (Run) owns all
// process state; supervisors report to it and API calls send it requests.
type Engine struct {
	cfg  *config.Config
	opts Options
	// published is the config being run, for readers off the engine
	// goroutine (GET /v1/config); the loop replaces it on reconcile.
	published atomic.Pointer[config.Config]
	bus       *Bus
	instance  string
	contain   contain.Containment

	requests chan func()
	reports  chan report
	stopped  chan struct{} // closed when Run returns

	// Loop-owned state: only the Run goroutine touches what follows.
	procs map[string]*procState
	order []string
	// dependents is cfg's reverse dependency graph (see useConfig).
	dependents   map[string][]string
	shuttingDown bool
	killAll      bool
	endReason    string
	firstFailure string
	watches      *watchers
	waiters      []*waiter
	runCtx       context.Context
	// began is when Run started; announcedReady is set once the all-ready
	// summary has been published.
	began          time.Time
	announcedReady bool
}

// New prepares an engine for cfg; nothing starts until Run.
func New(cfg *config.Config, opts Options) (*Engine, error) {
	order, err := cfg.StartOrder()
	if err != nil {
		return nil, err
	}
	if opts.LogDir == "" {
		// Best effort: the log folder's own creation reports a failure.
		_, _ = statedir.Ensure(cfg.Dir)
		opts.LogDir = filepath.Join(cfg.Dir, statedir.Name, "logs")
	}
	if opts.LogLimit == 0 {
		opts.LogLimit = defaultLogLimit
	}
	if opts.RingSize == 0 {
		opts.RingSize = 1000
	}
	if opts.Bus == nil {
		opts.Bus = NewBus()
	}
	wanted, err := wantedSet(cfg, opts.Only)
	if err != nil {
		return nil, err
	}
	if err := privateDir(opts.LogDir); err != nil {
		return nil, fmt.Errorf("create the log folder: %w", err)
	}
	e := &Engine{
		opts: opts, bus: opts.Bus, instance: contain.NewInstance(),
		requests: make(chan func()), reports: make(chan report, 256),
		stopped: make(chan struct{}), procs: make(map[string]*procState),
	}
	e.useConfig(cfg, order)
	for _, name := range order {
		ps, err := e.newProcState(cfg.Procs[name], wanted[name])
		if err != nil {
			return nil, err
		}
		if err := checkIdleConfig(ps); err != nil {
			return nil, err
		}
		e.procs[name] = ps
	}
	return e, nil
}

// useConfig makes cfg, started in order, the config the engine runs, with
// its reverse dependency graph, which shutdown and restarts ask for on
// every event.
func (e *Engine) useConfig(cfg *config.Config, order []string) {
	e.cfg, e.order, e.dependents = cfg, order, cfg.DependentsGraph()
	e.published.Store(cfg)
}

// wantedSet is the set of processes `procs up` should start.
func wantedSet(cfg *config.Config, only []string) (map[string]bool, error) {
	names := cfg.Names()
	if len(only) > 0 {
		var err error
		if names, err = cfg.WithDependencies(only...); err != nil {
			return nil, err
		}
	}
	wanted := make(map[string]bool, len(names))
	for _, name := range names {
		wanted[name] = !cfg.Procs[name].Disabled
	}
	return wanted, nil
}

// Bus returns the event bus of the engine.
func (e *Engine) Bus() *Bus { return e.bus }

// Config returns the configuration the engine runs.
func (e *Engine) Config() *config.Config { return e.published.Load() }

// Run starts the processes and supervises them until ctx is cancelled or
// Down is called, then stops everything in reverse dependency order. It also
// returns, with everything settled, once nothing runs and nothing can start.
func (e *Engine) Run(ctx context.Context) (Outcome, error) {
	defer close(e.stopped)
	c, err := contain.New(e.instance, contain.Options{Watchdog: !e.opts.NoWatchdog})
	if err != nil {
		return Outcome{}, err
	}
	e.contain = c
	defer c.Close()
	// Supervisors outlive ctx: on cancellation they are stopped gracefully,
	// in order, by the shutdown below, not killed by context.
	runCtx, cancelRuns := context.WithCancel(context.Background())
	defer cancelRuns()
	e.runCtx = runCtx
	e.began = time.Now()
	e.watches = newWatchers()
	defer e.watches.close()
	e.schedule()
	e.syncWatches()
	done := ctx.Done()
	for {
		if e.settled() {
			break
		}
		select {
		case req := <-e.requests:
			req()
		case r := <-e.reports:
			e.handleReport(r)
		case <-done:
			done = nil
			e.beginShutdown("interrupted")
		}
		e.exitOnFailure()
		e.schedule()
		e.syncWatches()
		e.resolveWaiters()
		e.announceAllReady()
	}
	e.failWaiters()
	e.closeLogs()
	return e.outcome(), nil
}

// settled reports whether nothing runs, nothing waits in backoff and
// nothing more can start.
func (e *Engine) settled() bool {
	if e.opts.UntilDown && !e.shuttingDown {
		return false
	}
	for _, ps := range e.procs {
		if ps.sup != nil || ps.backoff != nil {
			return false
		}
		if !e.shuttingDown && ps.wanted && ps.state == rules.StatePending {
			return false
		}
	}
	return !e.opts.StayUp || e.shuttingDown || e.allTasksCompleted()
}

// allTasksCompleted reports whether every process is a task that
// completed: nothing is left for a procs that stays up to do. Processes
// never started (disabled, or not named to procs up NAME...) do not count;
// one stopped by request does, since it may be started again.
func (e *Engine) allTasksCompleted() bool {
	for _, ps := range e.procs {
		if ps.state == rules.StateCompleted || !ps.wanted && ps.run == 0 {
			continue
		}
		return false
	}
	return true
}

// exitOnFailure begins shutdown at the first failure when asked to.
func (e *Engine) exitOnFailure() {
	if !e.opts.ExitOnFailure || e.shuttingDown {
		return
	}
	for _, name := range e.order {
		if ps := e.procs[name]; ps.state == rules.StateFailed && !ps.recoverable {
			e.firstFailure = name
			e.beginShutdown("exit on failure: " + name + " failed")
			return
		}
	}
}

// Outcome summarises how a Run ended.
type Outcome struct {
	// Failed lists processes that ended failed (not stopped by request).
	Failed []string
	// Ended says why shutdown began ("interrupted", "down", "exit on
	// failure: …"), empty when Run ended because nothing was left to run.
	Ended string
	// AllEnded says Run returned because every process had ended by
	// itself, not on Down or ctx.
	AllEnded bool
}

func (e *Engine) outcome() Outcome {
	out := Outcome{Ended: e.endReason, AllEnded: !e.shuttingDown}
	for _, name := range e.order {
		if e.procs[name].state == rules.StateFailed {
			out.Failed = append(out.Failed, name)
		}
	}
	if e.firstFailure != "" && !slices.Contains(out.Failed, e.firstFailure) {
		// Stopped while failed: the failure is what ended the run.
		out.Failed = append(out.Failed, e.firstFailure)
	}
	return out
}

// do runs f on the engine goroutine and waits for it.
func (e *Engine) do(f func()) error {
	done := make(chan struct{})
	select {
	case e.requests <- func() { f(); close(done) }:
	case <-e.stopped:
		return ErrShuttingDown
	}
	select {
	case <-done:
		return nil
	case <-e.stopped:
		return ErrShuttingDown
	}
}

// post sends f to the engine goroutine without waiting (timers use it).
func (e *Engine) post(f func()) {
	go func() {
		select {
		case e.requests <- f:
		case <-e.stopped:
		}
	}()
}

func (e *Engine) publishState(ps *procState, from rules.State, reason, message string) {
	ev := Event{
		Type: EventState, Time: time.Now(), Proc: ps.cfg.Name, Run: ps.run,
		From: from, To: ps.state, Reason: reason, Message: message,
	}
	if ps.state == rules.StateReady {
		ev.DurationMs = ps.readyAt.Sub(ps.startedAt).Milliseconds()
	}
	ev.Recoverable = ps.state == rules.StateFailed && ps.recoverable
	e.bus.Publish(ev)
}

func (e *Engine) closeLogs() {
	for _, ps := range e.procs {
		if ps.logs != nil {
			_ = ps.logs.Close()
		}
	}
}

// onProc runs f with the state of process name on the engine goroutine and
// returns f's error, or why f could not run: an unknown name
// (ErrUnknownProcess) or an engine that has stopped (ErrShuttingDown).
func (e *Engine) onProc(name string, f func(ps *procState) error) error {
	var err error
	if doErr := e.do(func() {
		var ps *procState
		if ps, err = e.lookup(name); err == nil {
			err = f(ps)
		}
	}); doErr != nil {
		return doErr
	}
	return err
}

func (e *Engine) lookup(name string) (*procState, error) {
	ps, ok := e.procs[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %v)", ErrUnknownProcess, name, e.order)
	}
	return ps, nil
}
