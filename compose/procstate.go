package compose

import (
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// procState is the engine's record of one process. Only the engine
// goroutine reads or writes it.
type procState struct {
	cfg       *config.Proc
	detect    *rules.Spec
	preset    string
	presetEnv map[string]string
	// runEnv is what the config gave the current run's environment
	// (config.Environment), env files as they were when it started.
	runEnv map[string]string
	// pty says the process runs in a pseudo-terminal.
	pty bool
	// recoverable marks a failed state the program recovers from itself.
	recoverable bool
	// idle is the onIdle state; nil without onIdle.
	idle *idleState
	// screen is the last rows of a PTY run's screen, as of its last verdict:
	// a result shows them, where a TUI's log lines are a jumble of redraws.
	screen []string

	state   rules.State
	reason  rules.Reason
	message string
	line    string
	since   time.Time

	run       int
	pid       int
	startedAt time.Time
	readyAt   time.Time
	ports     []int
	exitCode  *int

	// wanted says the process should be running (false once stopped by request).
	wanted bool
	// restartPending starts a new run as soon as the current one has exited.
	restartPending bool
	// restartDependents restarts dependents declaring restart: true once this run is ready.
	restartDependents bool
	// noDeps keeps this restart from restarting restart: true dependents.
	noDeps bool
	// removed marks a process no longer in the config: its state goes once
	// its run has ended.
	removed bool
	// restarts counts consecutive restarts by the restart policy.
	restarts int
	// totalRestarts counts every restart, for status.
	totalRestarts int
	backoff       *time.Timer
	// failedStop says procs is stopping the current run because it failed.
	failedStop bool
	// backoffGen numbers the backoff timers: a callback of an older one is stale.
	backoffGen int

	sup  *supervisor
	ring *rules.Ring
	logs *logFile
	// lastScreen is the last screen of the last run of a PTY process that
	// ended: it holds why.
	lastScreen *ScreenText
}

func (e *Engine) newProcState(p *config.Proc, wanted bool) (*procState, error) {
	d, err := DetectionOf(p)
	if err != nil {
		return nil, err
	}
	limit, keep := e.logRetention(p)
	logs := newLogFile(e.opts.LogDir, p.Name, limit, keep)
	e.reportLogHealth(p.Name, logs)
	ps := &procState{
		cfg: p, detect: d.Spec, preset: d.presetName(), presetEnv: d.presetEnv(), pty: usesPTY(p, d.presetName()),
		state: rules.StatePending, since: time.Now(), wanted: wanted,
		ring: rules.NewRing(e.opts.RingSize), logs: logs,
	}
	if !wanted {
		ps.state = rules.StateStopped
		ps.reason = rules.ReasonNotStarted
		if p.Disabled {
			ps.reason = rules.ReasonDisabled
		}
	}
	return ps, nil
}

// setState moves a process to a new state and publishes the transition.
// Setting the same state again with the same reason publishes nothing.
func (e *Engine) setState(ps *procState, to rules.State, reason rules.Reason, message string) {
	from := ps.state
	if from == to && ps.reason == reason && ps.message == message {
		return
	}
	ps.state, ps.reason, ps.message, ps.since = to, reason, message, time.Now()
	// readyAt is the first ready of the run: an agent goes back and forth
	// between busy and ready, and "ready in" means the start-up.
	if to == rules.StateReady && from != rules.StateReady && from != rules.StateUnhealthy && !ps.readyAt.After(ps.startedAt) {
		ps.readyAt = ps.since
	}
	if to != rules.StateFailed {
		ps.recoverable = false
	}
	e.publishState(ps, from, reason, message)
	e.idleOnState(ps, from)
}

// running reports whether a run of the process is alive.
func (ps *procState) running() bool { return ps.sup != nil }
