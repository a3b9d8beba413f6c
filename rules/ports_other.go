//go:build !linux

package rules

import (
	"slices"
	"time"

	"github.com/procsdev/procs/internal/osproc"
)

// ListeningPorts returns the TCP ports (IPv4 and IPv6, LISTEN state) that
// the process tree under rootPID listens on, sorted. A listener of any
// other process, even on the same port, does not count. It fails when
// rootPID is gone (os.ErrNotExist) or the sockets cannot be read.
func ListeningPorts(rootPID int) ([]int, error) {
	tree, err := ProcessTree(rootPID)
	if err != nil {
		return nil, err
	}
	return osproc.ListeningPortsOf(tree)
}

// ListeningPortsSince is ListeningPorts here: without a shared read of
// the machine's listeners, a baseline tells nothing, and every look is
// made now, after asOf.
func ListeningPortsSince(rootPID int, _ PortsBaseline, _ time.Time) ([]int, error) {
	return ListeningPorts(rootPID)
}

// PortsBefore returns the zero baseline: here every look reads the tree's
// sockets, which gopsutil gives without a shared table.
func PortsBefore() PortsBaseline { return PortsBaseline{} }

// portWatch remembers what WatchPorts last saw of one tree.
type portWatch struct {
	ports []int
}

func newPortWatch(PortsBaseline) portWatch { return portWatch{} }

// look reports the tree's ports when they differ from the last look.
// maxAge is for the Linux look, which shares reads of the socket tables.
func (w *portWatch) look(rootPID int, _ time.Duration) ([]int, bool) {
	// A vanished process has no ports; its exit reaches the engine another
	// way, so errors are not reported here.
	ports, _ := ListeningPorts(rootPID)
	if slices.Equal(ports, w.ports) {
		return nil, false
	}
	w.ports = ports
	return slices.Clone(ports), true
}
