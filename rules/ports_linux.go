package rules

import (
	"slices"
	"time"
)

// ListeningPorts returns the TCP ports (IPv4 and IPv6, LISTEN state) that
// the process tree under rootPID listens on, sorted. A listener of any
// other process, even on the same port, does not count. It fails when
// rootPID is gone (os.ErrNotExist) or /proc cannot be read.
func ListeningPorts(rootPID int) ([]int, error) {
	inodes, err := treeSockets(rootPID)
	if err != nil || len(inodes) == 0 {
		return nil, err
	}
	table, err := freshListeners()
	if err != nil {
		return nil, err
	}
	return table.portsOf(inodes), nil
}

// ListeningPortsSince is ListeningPorts for a tree that started after
// before was taken, as it listened at asOf (the zero time: now). asOf is
// when procs saw what the look answers, a ready line read from the tree:
// what the tree listened on before it printed the line is in any read of
// the machine's listeners that began after procs read it, so runs ready
// together share one read. The machine's listeners are read first: when
// they are the very set of the baseline, nothing has started listening
// since the tree started, so its fd tables are not read. Those reads were
// half of procs' CPU per process in a start of 200 that listen on
// nothing, and each fd they list leaves the kernel an entry to drop when
// the process is reaped.
func ListeningPortsSince(rootPID int, before PortsBaseline, asOf time.Time) ([]int, error) {
	if !before.known {
		return ListeningPorts(rootPID)
	}
	if asOf.IsZero() {
		asOf = time.Now()
	}
	table, err := listenersReadSince(asOf)
	if err != nil {
		return nil, err
	}
	if table.version == before.version {
		return nil, nil
	}
	sockets, err := treeSockets(rootPID)
	if err != nil || len(sockets) == 0 {
		return nil, err
	}
	return table.portsOf(sockets), nil
}

// treeSockets returns the inodes of the sockets the tree under rootPID has
// open, sorted. Reading a few fd tables is much cheaper than reading the
// socket tables, and most processes have no socket at all.
func treeSockets(rootPID int) ([]uint64, error) {
	tree, err := ProcessTree(rootPID)
	if err != nil {
		return nil, err
	}
	var inodes []uint64
	for _, pid := range tree {
		socketInodes(pid, func(inode uint64) { inodes = append(inodes, inode) })
	}
	slices.Sort(inodes)
	return slices.Compact(inodes), nil
}

// portsOf returns the ports of the listening sockets among inodes, sorted.
func (t listenerTable) portsOf(inodes []uint64) []int {
	var ports []int
	for _, inode := range inodes {
		if port, ok := t.byInode[inode]; ok {
			ports = append(ports, port)
		}
	}
	slices.Sort(ports)
	return slices.Compact(ports)
}

// PortsBefore returns the baseline of a process about to start: the last
// read of the machine's listeners, however old, for any read made before
// the process starts is a true baseline (an older one has only seen fewer
// of the machine's other listeners). Only the first call of a procs reads
// them (one netlink request); the starts made at the same moment wait for
// that read and share it. A baseline that knows nothing (before any read)
// makes the run's every look read its tree's fd tables, and the first two
// hundred runs of a start all had one: the /proc entries those reads made
// cost again when each run's process was reaped.
func PortsBefore() PortsBaseline {
	listenerCache.mu.Lock()
	defer listenerCache.mu.Unlock()
	if listenerCache.readAt.IsZero() && readListeners() != nil {
		return PortsBaseline{}
	}
	return PortsBaseline{version: listenerCache.table.version, known: true}
}

// portWatch remembers what WatchPorts last saw of one tree.
type portWatch struct {
	ports   []int
	version uint64 // of the listener table the ports were computed from
	looked  bool
}

// newPortWatch starts from the baseline: a tree that started after it has
// no listener until the machine's listeners change.
func newPortWatch(before PortsBaseline) portWatch {
	return portWatch{version: before.version, looked: before.known}
}

// look reports the tree's ports when they differ from the last look. The
// machine's listening sockets are read first, shared by every watcher; the
// tree's fd tables are read only when that set changed since this watcher's
// last look, since no process can have started listening otherwise. Fifty
// idle processes then cost one read of the socket tables per tick, not
// fifty fd scans. maxAge bounds how old a shared read may be.
func (w *portWatch) look(rootPID int, maxAge time.Duration) ([]int, bool) {
	table, err := listenersNewerThan(maxAge)
	if err != nil {
		return nil, false
	}
	if w.looked && table.version == w.version {
		return nil, false
	}
	// A vanished process has no ports; its exit reaches the engine another
	// way, so errors are not reported here.
	sockets, _ := treeSockets(rootPID)
	w.version, w.looked = table.version, true
	ports := table.portsOf(sockets)
	if slices.Equal(ports, w.ports) {
		return nil, false
	}
	w.ports = ports
	return slices.Clone(ports), true
}
