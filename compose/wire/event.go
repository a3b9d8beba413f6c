package wire

import (
	"time"

	"github.com/procsdev/procs/rules"
)

// EventType says what an Event reports.
type EventType string

// The event types.
const (
	// EventState is a state transition of a process.
	EventState EventType = "state"
	// EventLine is one line of a process's output.
	EventLine EventType = "line"
	// EventInfo is a notable action with no state change (an autoRespond answer, a backoff delay).
	EventInfo EventType = "info"
)

// Event is one thing that happened, as published on the bus. State events
// are never dropped; line events may be dropped for a subscriber that reads
// too slowly (the log file keeps every line).
type Event struct {
	Seq     int64        `json:"seq"`
	Type    EventType    `json:"type"`
	Time    time.Time    `json:"time"`
	Proc    string       `json:"proc"`
	Run     int          `json:"run"`
	From    rules.State  `json:"from,omitempty"`
	To      rules.State  `json:"to,omitempty"`
	Reason  rules.Reason `json:"reason,omitempty"`
	Message string       `json:"message,omitempty"`
	// Line is the ANSI-stripped text of a line event.
	Line string `json:"line,omitempty"`
	// Raw is the line as the process wrote it, colours included.
	Raw    []byte `json:"-"`
	Stream string `json:"stream,omitempty"`
	// DurationMs is, for a transition to ready, how long the run took to get there.
	DurationMs int64 `json:"durationMs,omitempty"`
	// Recoverable marks a failed state the program recovers from by itself
	// (an agent's rate limit); the process keeps running.
	Recoverable bool `json:"recoverable,omitempty"`
	// Snapshot marks a state event that reports the present state of a
	// process when a stream of events opens (its Seq is 0, its Time when
	// the process entered the state, From empty), not a transition.
	Snapshot bool `json:"snapshot,omitempty"`
}
