package compose

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/internal/statedir"
)

// Options tunes an Engine.
type Options struct {
	// LogDir receives NAME.log for every process (default .procs/logs beside procs.yaml).
	LogDir string
	// Only starts just these processes and their dependencies (procs up NAME...).
	Only []string
	// Scale is the number of instances of the processes named, over their
	// replicas: (procs up --scale); the config given to New has them.
	Scale map[string]int
	// Profiles are the active profiles: a process with profiles starts
	// with procs up only when one of them is here.
	Profiles []string
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
	// AllReady is called on the engine goroutine the first time every
	// process has come up (when procs says "all N ready"), just before
	// the engine gives the start's garbage back to the system.
	AllReady func()
}

// Engine runs the processes of a config. One goroutine (Run) owns all
// process state; supervisors report to it and API calls send it requests.
type Engine struct {
	cfg  *config.Config
	opts Options
	// watchesFiles says some definition of cfg watches files (watch:), so
	// that the loop looks for watches to start only when one may be due.
	watchesFiles bool
	// published is the config being run, for readers off the engine
	// goroutine (GET /v1/config); the loop replaces it on reconcile.
	published atomic.Pointer[config.Config]
	bus       *Bus
	instance  string
	// reconfigure lets one reload, restart from disk or scale at a time
	// compute the next config from the last one.
	reconfigure sync.Mutex
	// scale is the number of instances procs up --scale and procs scale
	// asked for, which every config loaded again keeps.
	scale   atomic.Pointer[map[string]int]
	contain contain.Containment
	// usage measures what each process uses, while someone looks.
	usage *usageSampler

	requests chan func()
	reports  chan report
	stopped  chan struct{} // closed when Run returns

	// Loop-owned state: only the Run goroutine touches what follows.
	// life decides every lifecycle (lifecycle.Machine); the engine carries
	// out its effects with what procs holds of each process: its
	// supervisor, logs, ring, screen and detection.
	life     *lifecycle.Machine
	procs    map[string]*procState
	waiters  map[int]*waiter
	lastWait int
	backoffs map[string]*time.Timer
	watches  *watchers
	// schedules are the timers of scheduled tasks, by name.
	schedules map[string]*scheduleState
	runCtx    context.Context
	// began is when Run started; announcedReady is set once the all-ready
	// summary has been published.
	began          time.Time
	announcedReady bool
	// readyScan is how many processes, in start order, announceAllReady
	// has seen come up.
	readyScan int
	// toldClosing says the containment was told the shutdown began.
	toldClosing bool
}

// New prepares an engine for cfg; nothing starts until Run.
func New(cfg *config.Config, opts Options) (*Engine, error) {
	// On another thread: it waits for the kernel (see osproc.ReserveFDs).
	go osproc.ReserveFDs(reservedDescriptors(len(cfg.Procs)))
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
	wanted, err := wantedSet(cfg, opts.Only, opts.Profiles)
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
		waiters: map[int]*waiter{}, backoffs: map[string]*time.Timer{},
	}
	e.useConfig(cfg)
	e.scale.Store(&opts.Scale)
	e.usage = newUsageSampler(e.instance, e.usageTargets)
	interactive := map[string]bool{}
	for _, name := range order {
		d, err := DetectionOf(cfg.Procs[name], cfg.Env)
		if err != nil {
			return nil, err
		}
		ps := e.newProcState(cfg.Procs[name], d)
		if err := checkIdleConfig(ps); err != nil {
			return nil, err
		}
		e.procs[name] = ps
		interactive[name] = ps.drivenByInput()
	}
	e.life = lifecycle.New(cfg, order, wanted, interactive, lifecycle.Options{
		StayUp: opts.StayUp, UntilDown: opts.UntilDown, ExitOnFailure: opts.ExitOnFailure,
		Profiles: opts.Profiles,
	})
	for name, ps := range e.procs {
		ps.life = e.life.Proc(name)
	}
	return e, nil
}

// useConfig makes cfg the config the engine runs.
func (e *Engine) useConfig(cfg *config.Config) {
	e.cfg = cfg
	e.watchesFiles = false
	for _, p := range cfg.Procs {
		e.watchesFiles = e.watchesFiles || p.Watch != nil
	}
	e.published.Store(cfg)
}

// wantedSet is the set of processes `procs up` should start: NAME... and
// their dependencies whatever their profiles, or else those of the active
// profiles (config.UpSet). Disabled processes never start with up.
func wantedSet(cfg *config.Config, only, profiles []string) (map[string]bool, error) {
	names := cfg.UpSet(profiles)
	if len(only) > 0 {
		var err error
		if names, err = cfg.WithDependencies(cfg.Resolve(only)...); err != nil {
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
	defer e.runUsageSampler()()
	// Supervisors outlive ctx: on cancellation they are stopped gracefully,
	// in order, by the shutdown below, not killed by context.
	runCtx, cancelRuns := context.WithCancel(context.Background())
	defer cancelRuns()
	e.runCtx = runCtx
	e.began = time.Now()
	e.watches = newWatchers()
	defer e.watches.close()
	defer e.disarmSchedules()
	e.syncSchedules(false)
	e.life.Begin()
	e.act()
	e.syncWatches()
	done := ctx.Done()
	for !e.life.Settled() {
		select {
		case req := <-e.requests:
			req()
		case r := <-e.reports:
			e.handleReport(r)
		case <-done:
			done = nil
			e.life.Down(EndInterrupted)
		}
		e.act()
		e.syncWatches()
		e.announceAllReady()
	}
	e.life.Close()
	e.act()
	e.closeLogs()
	return e.life.Outcome(), nil
}

// Outcome summarises how a Run ended: the processes that ended failed,
// why shutdown began ("interrupted", "down", "exit on failure: …"), and
// whether every process ended by itself.
type Outcome = lifecycle.Outcome

// do runs f on the engine goroutine and waits for it. It says
// ErrShuttingDown only for a request the engine did not take: once taken
// (requests is unbuffered), f runs before the loop looks whether it may
// end, so its caller waits for f alone. Waiting for the engine's end as
// well would let a Down that ended the engine answer, at random, that the
// engine was shutting down.
func (e *Engine) do(f func()) error {
	return e.doUntil(context.Background(), f)
}

// doUntil is do for a caller that may have to leave first: it gives up
// when ctx ends before the engine takes f.
func (e *Engine) doUntil(ctx context.Context, f func()) error {
	done := make(chan struct{})
	select {
	case e.requests <- func() { f(); close(done) }:
	case <-e.stopped:
		return ErrShuttingDown
	case <-ctx.Done():
		return ctx.Err()
	}
	<-done
	return nil
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

// lookup is the one way from a name given from outside to the state of a
// process: the machine says whether it exists.
func (e *Engine) lookup(name string) (*procState, error) {
	if _, err := e.life.Lookup(name); err != nil {
		return nil, err
	}
	return e.procs[name], nil
}

// descriptorsPerRun is what each running process holds open in procs: the
// pipes of its stdout, stderr and stdin, two pidfds (os/exec's and the exit
// watch's, osproc.AwaitExit) and its log file.
const descriptorsPerRun = 6

// reservedDescriptors is the descriptor table that running n processes
// takes, with room for procs' own (its control socket, clients, probes).
func reservedDescriptors(n int) int { return 32 + n*descriptorsPerRun }
