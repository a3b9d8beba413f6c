package rules

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/procsdev/procs/internal/osproc"
)

// Holder is the process listening on a port.
type Holder struct {
	PID int
	// Cmdline is its command line, arguments joined by spaces, shortened.
	Cmdline string
}

// PortInUseError says a port is taken, and by whom when the OS tells.
type PortInUseError struct {
	Port   int
	Holder *Holder // nil when the holder cannot be seen (another user's process)
}

func (e *PortInUseError) Error() string {
	if e.Holder == nil {
		return fmt.Sprintf("port %d is in use", e.Port)
	}
	return fmt.Sprintf("port %d is in use by pid %d (%s)", e.Port, e.Holder.PID, e.Holder.Cmdline)
}

// PortFree returns nil when nothing listens on port, or a *PortInUseError
// naming the holder, for the message before a start: `port 5432 is in use
// by pid 1234 (postgres -D ...)`.
func PortFree(port int) error {
	if !PortInUse(port) {
		return nil
	}
	err := &PortInUseError{Port: port}
	if h, ok := HolderOf(port); ok {
		err.Holder = &h
	}
	return err
}

func bindFails(port int) bool {
	l, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return errors.Is(err, syscall.EADDRINUSE)
	}
	l.Close()
	return false
}

// holderAmong picks, among the processes holding one listening socket
// (sorted), the one to name: when several share it (a forking server),
// the one whose parent does not also hold it.
func holderAmong(holders []int) Holder {
	pid := holders[0]
	for _, candidate := range holders {
		if !slices.Contains(holders, osproc.ParentOf(candidate)) {
			pid = candidate
			break
		}
	}
	return Holder{PID: pid, Cmdline: cmdline(pid)}
}

// cmdline returns the command line of pid for a message, shortened.
func cmdline(pid int) string {
	line := osproc.CommandLine(pid)
	if line == "" {
		line = "[" + osproc.Comm(pid) + "]"
	}
	// It goes into one line (a message, a status cell): an argument's
	// newlines and tabs (python3 -c with a script) become spaces.
	return shorten(strings.Join(strings.Fields(line), " "), 120, "...")
}

// CommandLine returns the command line of pid for a message, shortened
// ("[comm]" when it has none).
func CommandLine(pid int) string { return cmdline(pid) }
