//go:build !linux

package rules

import (
	"slices"

	"github.com/procsdev/procs/internal/osproc"
)

// PortInUse reports whether some process listens on TCP port, on any
// address, IPv4 or IPv6, from the OS's table of sockets (osproc.Listeners),
// rather than trying to bind: reading has no side effect, and it sees a
// listener on 127.0.0.1 as well as one on [::]. Only when the table cannot
// be read does it fall back to binding 0.0.0.0.
func PortInUse(port int) bool {
	listeners, err := osproc.Listeners()
	if err != nil {
		return bindFails(port)
	}
	return slices.ContainsFunc(listeners, func(l osproc.Listener) bool { return l.Port == port })
}

// HolderOf returns the process listening on port. When several processes
// share the socket (a forking server), it names the one whose parent does
// not also hold it. false when nothing listens on port or the holder
// cannot be seen.
func HolderOf(port int) (Holder, bool) {
	listeners, err := osproc.Listeners()
	if err != nil {
		return Holder{}, false
	}
	var holders []int
	for _, l := range listeners {
		if l.Port == port && l.PID > 0 {
			holders = append(holders, l.PID)
		}
	}
	if len(holders) == 0 {
		return Holder{}, false
	}
	slices.Sort(holders)
	return holderAmong(slices.Compact(holders)), true
}
