package rules

import (
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Holder is the process listening on a port.
type Holder struct {
	PID int
	// Cmdline is its command line, arguments joined by spaces, shortened.
	Cmdline string
}

// PortInUseError says a port is taken, and by whom when /proc tells.
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

// PortInUse reports whether some process listens on TCP port, on any
// address, IPv4 or IPv6. It reads /proc/net/tcp{,6} rather than trying to
// bind: reading has no side effect (a test bind briefly holds the port the
// child is about to take), and it sees a listener on 127.0.0.1 as well as
// one on [::]. Only without /proc does it fall back to binding 0.0.0.0.
func PortInUse(port int) bool {
	listeners, err := tcpListeners()
	if err != nil {
		return bindFails(port)
	}
	for _, p := range listeners {
		if p == port {
			return true
		}
	}
	return false
}

func bindFails(port int) bool {
	l, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return errors.Is(err, syscall.EADDRINUSE)
	}
	l.Close()
	return false
}

// HolderOf returns the process listening on port, found by matching the
// listener's socket inode against every /proc/<pid>/fd. When several
// processes share the socket (a forking server), it names the one whose
// parent does not also hold it. false when nothing listens on port or the
// holder's fds cannot be read.
func HolderOf(port int) (Holder, bool) {
	listeners, err := tcpListeners()
	if err != nil {
		return Holder{}, false
	}
	inodes := make(map[uint64]bool)
	for inode, p := range listeners {
		if p == port {
			inodes[inode] = true
		}
	}
	if len(inodes) == 0 {
		return Holder{}, false
	}
	holders := pidsHolding(inodes)
	if len(holders) == 0 {
		return Holder{}, false
	}
	pid := holders[0]
	for _, candidate := range holders {
		if !slices.Contains(holders, parentOf(candidate)) {
			pid = candidate
			break
		}
	}
	return Holder{PID: pid, Cmdline: cmdline(pid)}, true
}

// pidsHolding returns the processes with one of inodes open, sorted.
func pidsHolding(inodes map[uint64]bool) []int {
	entries, err := os.ReadDir(procRoot)
	if err != nil {
		return nil
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		holds := false
		socketInodes(pid, func(inode uint64) { holds = holds || inodes[inode] })
		if holds {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids
}

// parentOf reads the parent PID from /proc/<pid>/stat, whose second field
// (the command name in parentheses) may itself contain spaces and ')'.
func parentOf(pid int) int {
	data, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// cmdline returns the command line of pid for a message, shortened.
func cmdline(pid int) string {
	base := procRoot + "/" + strconv.Itoa(pid)
	data, err := os.ReadFile(base + "/cmdline")
	line := strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " "))
	if err != nil || line == "" {
		comm, _ := os.ReadFile(base + "/comm")
		line = "[" + strings.TrimSpace(string(comm)) + "]"
	}
	const limit = 120
	if len(line) > limit {
		line = line[:limit] + "..."
	}
	return line
}

// CommandLine returns the command line of pid for a message, shortened
// ("[comm]" when it has none).
func CommandLine(pid int) string { return cmdline(pid) }
