package rules

import (
	"time"

	"github.com/procsdev/procs/rules/agentstream"
)

// EventKind says what an Event reports.
type EventKind int

// The kinds of event a detector consumes.
const (
	// EventLine is one line of output (Event.Line).
	EventLine EventKind = iota
	// EventExit is the end of the process (Event.Exit).
	EventExit
	// EventPorts is a change in the ports the process tree listens on
	// (Event.Ports, the complete new set).
	EventPorts
	// EventProbe is the result of a readiness probe (Event.Probe).
	EventProbe
	// EventTimer is the deadline the detector asked for via Deadline.
	EventTimer
	// EventDeps is a change in the states of dependencies (Event.Deps).
	EventDeps
	// EventScreen says the screen of a PTY run changed (output was drawn,
	// or the window resized); Time is when the newest output was read.
	EventScreen
	// EventInput is input ending with Enter, about to be written to an
	// interactive run: its prompt no longer means idle until it answers.
	EventInput
	// EventInputWritten says that input was written; Time is when the
	// write began, so output read after it may be the answer.
	EventInputWritten
	// EventExec says the programs of the process tree changed
	// (Event.Program): a run ready by running does not settle while a
	// version manager's shim (pyenv, asdf…) is still choosing the program,
	// and settles from when it has; nor while the program is busy.
	EventExec
	// EventKeys is input without Enter (typed text, Ctrl-C, Esc) about to
	// be written to an interactive run: what was on screen before it is
	// no longer current.
	EventKeys
	// EventPermission says an agent CLI in its JSON mode asks, through
	// procs' MCP server rather than its output (Claude Code's
	// --permission-prompt-tool), whether it may use a tool
	// (Event.Permission), or, with Permission nil, that the request it
	// waited on was answered or withdrawn.
	EventPermission
)

// Event is one thing that happened to a run. Time is when it happened; the
// detector measures delays and timeouts with it, never with the clock, so
// replays of captured output decide exactly as the live run would.
type Event struct {
	Kind  EventKind
	Time  time.Time
	Line  Line
	Exit  Exit
	Ports []int
	Probe ProbeResult
	Deps  map[string]State
	// Input is, for EventInput, the text sent (with its Enter); for
	// EventKeys, the keys sent.
	Input string
	// Program is, for EventExec, the command lines of the process tree,
	// one a line; Busy says a process of it is running on a CPU or waiting
	// for the disk (still starting up, where an idle worker sleeps).
	Program string
	Busy    bool
	// Permission is, for EventPermission, the request asked; nil once it
	// is answered or withdrawn.
	Permission *agentstream.Event
}

// Verdict is what the detector concludes about a run.
type Verdict struct {
	// State is one of StateStarting, StateReady, StateFailed,
	// StateCompleted, StateStopped, and for interactive runs StateBusy,
	// StateAwaitingInput and StateAwaitingPermission.
	State State
	// Reason says in a word why (ReasonReady, ReasonError, ReasonTimeout…).
	Reason Reason
	// Message is a sentence for people, e.g. `matched "listening on :8080";
	// port 8080 open`.
	Message string
	// Line is the deciding line, ANSI-stripped; "" if none.
	Line string
	// ExitCode is the exit code once the process has exited.
	ExitCode int
	// Recoverable marks a failure the program recovers from by itself (a
	// rate limit it retries); the run goes on.
	Recoverable bool
	// Agent is, for an agent CLI in its JSON mode, what its run said of
	// itself (session, spending, last answer); nil for others.
	Agent *AgentReport
}
