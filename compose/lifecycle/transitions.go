package lifecycle

import (
	"sync"

	"github.com/procsdev/procs/rules"
)

// Edge is one transition between two states.
type Edge struct {
	From, To rules.State
}

const (
	pending   = rules.StatePending
	blocked   = rules.StateBlocked
	starting  = rules.StateStarting
	ready     = rules.StateReady
	busy      = rules.StateBusy
	input     = rules.StateAwaitingInput
	perm      = rules.StateAwaitingPermission
	unhealthy = rules.StateUnhealthy
	failed    = rules.StateFailed
	completed = rules.StateCompleted
	backoff   = rules.StateBackoff
	stopping  = rules.StateStopping
	stopped   = rules.StateStopped
)

// alive are the states of a run that is going: detection moves a run
// between any two of them.
var alive = []rules.State{starting, ready, busy, input, perm, unhealthy, failed}

// Transitions returns the legal edges of the lifecycle, each with what
// takes it. A state set again to itself (a new reason or message) is
// always legal and not listed. The machine refuses any other edge. The
// table is made on first use, not at init: most runs of the procs binary
// (a CLI command, the watchdog) never start an engine.
var Transitions = sync.OnceValue(transitions)

func transitions() map[Edge]string {
	edges := map[Edge]string{
		// Waiting to start.
		{pending, starting}: "dependencies satisfied: a run starts",
		{pending, blocked}:  "a dependency failed or stopped for good",
		{blocked, pending}:  "the blocking dependency is coming back",
		{blocked, starting}: "the blocking dependency is satisfied again",
		{pending, stopped}:  "stop, down, or the process was removed or disabled",
		{blocked, stopped}:  "stop, down, or the process was removed or disabled",

		// The end of a run, by the exit verdict or by a request.
		{stopping, stopped}:   "the run ended after a stop",
		{stopping, pending}:   "the run ended for a restart",
		{stopping, failed}:    "the run ended, stopped because it failed",
		{stopping, completed}: "a task completed while being stopped",

		// After the end of a run.
		{failed, backoff}:    "the restart policy brings it back after a delay",
		{completed, backoff}: "restart: always brings a completed task back",
		{stopped, backoff}:   "restart: always brings back a run that ended",
		{backoff, pending}:   "the backoff delay passed, or a restart was asked for",
		{backoff, stopped}:   "stop or down during backoff",
		{failed, pending}:    "start, restart, or up brings it back",
		{completed, pending}: "start or restart runs the task again",
		{stopped, pending}:   "start or restart",
		{failed, stopped}:    "stop or down of a process that is not running",
		{completed, stopped}: "a task that completed is removed from the config or disabled (a stop leaves it completed)",
	}
	// Detection moves a live run between any two live states (a run that
	// cannot start goes from starting to failed); any live run can be
	// stopped, and ends: completed, failed, or stopped (it ended during
	// shutdown, or its program ended it as a user does). A restart or the
	// restart policy takes it on from stopping or from the state it ended in.
	for _, from := range alive {
		for _, to := range alive {
			if from != to {
				edges[Edge{from, to}] = "detection: the run's verdict changed"
			}
		}
		edges[Edge{from, stopping}] = "stop, restart, down, or an edit of its definition"
		edges[Edge{from, stopped}] = "the run ended by itself or on request"
		if from != failed {
			// A run that failed and then exits keeps the failure that explains it.
			edges[Edge{from, completed}] = "the run exited 0 (a task)"
		}
	}
	return edges
}

// Legal reports whether the lifecycle may go from one state to another.
func Legal(from, to rules.State) bool {
	if from == to {
		return true
	}
	_, ok := Transitions()[Edge{from, to}]
	return ok
}
