// Package control is the procs control plane: an HTTP+JSON API served by a
// running `procs up` on a Unix socket in the project folder, and the client
// the CLI commands use to talk to it (ARCHITECTURE.md §7).
//
// It serves an Engine, the interface *compose.Engine implements, and does
// not import the engine (compose) itself: the types it carries are
// compose/wire's, its events come from compose/bus, and its clients (mcp,
// tui, webui) link neither the engine nor process containment. It never
// imports one of its own clients.
package control

import "time"

// ErrorBody is the JSON body of every error response.
type ErrorBody struct {
	// Error says what went wrong and, where it can, what to do.
	Error string `json:"error"`
	// State is the state of the process when input was refused because it
	// is not ready for it (409).
	State string `json:"state,omitempty"`
	// StateMessage is the process's own state message when input was
	// refused (409), e.g. `working: "✻ Thinking…"`: a client that words
	// the refusal itself (MCP, which has no --force) quotes it.
	StateMessage string `json:"stateMessage,omitempty"`
	// Known are the process names of the config, when the request named
	// one that is not (404).
	Known []string `json:"known,omitempty"`
}

// InputRequest is the body of POST /v1/procs/{name}/input.
type InputRequest struct {
	// Text is written to the process as is.
	Text string `json:"text"`
	// Keys are pressed after the text, by name (enter, esc, ctrl-c; see
	// wire.KeySequence): written as a terminal sends them to a process in
	// one; on a pipe, Enter is a newline, tab and backspace their bytes,
	// and the other keys, which only a terminal gives a meaning, are
	// refused.
	Keys []string `json:"keys,omitempty"`
	// Enter appends the Enter key (\r in a terminal, \n on a pipe).
	Enter bool `json:"enter,omitempty"`
	// Force sends even to an interactive process that is not ready for
	// input (busy, starting), which is refused otherwise with 409.
	Force bool `json:"force,omitempty"`
}

// LogLine is one line of process output as the logs endpoint returns it.
type LogLine struct {
	Proc string `json:"proc"`
	// Run is the run of the process that printed the line (0 or absent
	// when no longer known): where it changes, a new run began.
	Run  int       `json:"run,omitempty"`
	Time time.Time `json:"time"`
	// Stream is stdout, stderr or pty; "procs" marks a note of procs about
	// Proc's output (its log file lost lines) or, with Proc "procs", about
	// the stream itself (lines dropped for a slow reader).
	Stream string `json:"stream"`
	Line   string `json:"line"`
	// Raw is the line as the process wrote it, colours included, when it
	// differs from Line.
	Raw string `json:"raw,omitempty"`
}

// Info describes the running procs, as GET /v1/info returns it.
type Info struct {
	// PID is the process id of procs.
	PID int `json:"pid"`
	// Dir is the project folder.
	Dir string `json:"dir"`
	// Socket is the path of the API socket.
	Socket string `json:"socket"`
	// StartedAt is when procs started (zero from an older procs).
	StartedAt time.Time `json:"startedAt,omitzero"`
	// Goroutines is how many goroutines procs runs now: a figure for
	// diagnosing leaks (the chaos test checks it does not grow).
	Goroutines int `json:"goroutines,omitempty"`
	// File is the config file procs runs from (procs.yaml, a Procfile).
	File string `json:"file,omitempty"`
}

// DownResult is the answer of POST /v1/down.
type DownResult struct {
	// Stopping is true once shutdown has begun.
	Stopping bool `json:"stopping"`
}

// maxBodyBytes bounds request bodies; larger ones get 413.
const maxBodyBytes = 1 << 20

// defaultWaitTimeout bounds a wait when the request gives no timeout.
const defaultWaitTimeout = 60 * time.Second
