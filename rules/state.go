package rules

// State is the lifecycle state of a process (ARCHITECTURE.md §3). The engine owns the
// state of each process; the detector proposes the detection-driven ones.
type State string

// The process states.
const (
	StatePending            State = "pending"
	StateBlocked            State = "blocked"
	StateStarting           State = "starting"
	StateReady              State = "ready"
	StateBusy               State = "busy"
	StateAwaitingInput      State = "awaiting-input"
	StateAwaitingPermission State = "awaiting-permission"
	StateUnhealthy          State = "unhealthy"
	StateFailed             State = "failed"
	StateCompleted          State = "completed"
	StateBackoff            State = "backoff"
	StateStopping           State = "stopping"
	StateStopped            State = "stopped"
)

// States lists every state, in the order of their declaration: what a
// wait may target, and what a rule may compare deps.NAME with.
var States = []State{StatePending, StateBlocked, StateStarting, StateReady, StateBusy,
	StateAwaitingInput, StateAwaitingPermission, StateUnhealthy, StateFailed, StateCompleted,
	StateBackoff, StateStopping, StateStopped}

// StateNames are the words of States, for messages and suggestions.
func StateNames() []string {
	names := make([]string, len(States))
	for i, st := range States {
		names[i] = string(st)
	}
	return names
}

// Terminal reports whether a process in this state is no longer running.
func (s State) Terminal() bool {
	switch s {
	case StateFailed, StateCompleted, StateStopped, StateBlocked:
		return true
	}
	return false
}
