package rules

import (
	"slices"

	"github.com/procsdev/procs/internal/osproc"
)

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
	return holderAmong(holders), true
}

// pidsHolding returns the processes with one of inodes open, sorted.
func pidsHolding(inodes map[uint64]bool) []int {
	var pids []int
	for _, pid := range osproc.AllPIDs() {
		holds := false
		socketInodes(pid, func(inode uint64) { holds = holds || inodes[inode] })
		if holds {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids
}
