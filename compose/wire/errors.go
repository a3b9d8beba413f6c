package wire

import (
	"errors"
	"fmt"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// ErrUnknownProcess is returned for a process name not in the config. It is
// config.ErrUnknownProcess, so errors.Is works whichever package returned it.
var ErrUnknownProcess = config.ErrUnknownProcess

// UnknownProcessError is an unknown name with the known ones
// (config.UnknownProcessError); its known names travel in ErrorBody.Known.
type UnknownProcessError = config.UnknownProcessError

// ErrShuttingDown is returned for requests that arrive while procs stops.
var ErrShuttingDown = errors.New("procs is shutting down")

// NotReadyForInputError is input refused because an interactive process is
// not waiting for it (busy, starting, failed): it would be lost, or typed
// into the middle of the program's work.
type NotReadyForInputError struct {
	Name  string
	State rules.State
	// Message is the process's own state message, e.g. `working: "✻ Thinking…"`.
	Message string
}

// Error says why and what to do.
func (e *NotReadyForInputError) Error() string {
	msg := fmt.Sprintf("%s is %s, not ready for input", e.Name, e.State)
	if e.Message != "" {
		msg += " (" + e.Message + ")"
	}
	return msg + fmt.Sprintf("; wait for it with `procs wait %s --for ready`, or send anyway with --force (keys such as Ctrl-C are always accepted)", e.Name)
}
