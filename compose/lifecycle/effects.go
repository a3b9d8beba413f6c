package lifecycle

import (
	"time"

	"github.com/procsdev/procs/rules"
)

// Effect is something the engine must do for the machine: the machine
// decides, the engine acts.
type Effect interface{ effect() }

// StartRun starts run Run of a process. If the engine cannot build the run
// (an unknown signal), it tells the machine with CannotStart.
type StartRun struct {
	Name string
	Run  int
}

// StopRun asks the current run of a process to end: gracefully (its
// shutdown signal, then SIGKILL after its timeout) or at once.
type StopRun struct {
	Name     string
	Graceful bool
}

// ArmBackoff starts the backoff timer of a process; when it fires, the
// engine calls BackoffFired with Gen.
type ArmBackoff struct {
	Name  string
	Gen   int
	Delay time.Duration
}

// CancelBackoff stops the backoff timer of a process. A callback already
// queued is told apart by its generation.
type CancelBackoff struct {
	Name string
}

// Transition is a change of state, to publish.
type Transition struct {
	Name     string
	Run      int
	From, To rules.State
	Reason   rules.Reason
	Message  string
	Time     time.Time
	// DurationMs is, on a transition to ready, how long the run took to
	// become ready.
	DurationMs  int64
	Recoverable bool
}

// Info is news about a process that changes no state (a restart that
// follows a dependency, a policy that gave up), to publish.
type Info struct {
	Name    string
	Run     int
	Reason  rules.Reason
	Message string
}

// Answer ends a wait: Proc is the process as the wait ends (a copy),
// Success says whether it reached a target state, Note says why it ended
// otherwise ("removed from the config", "procs stopped").
type Answer struct {
	Waiter  int
	Proc    Proc
	Success bool
	Note    string
}

// Forget drops what the engine keeps for a process removed from the
// config, once its last run has ended. Its answers come before.
type Forget struct {
	Name string
}

func (StartRun) effect()      {}
func (StopRun) effect()       {}
func (ArmBackoff) effect()    {}
func (CancelBackoff) effect() {}
func (Transition) effect()    {}
func (Info) effect()          {}
func (Answer) effect()        {}
func (Forget) effect()        {}
