package rules

import (
	"maps"
	"sync"
	"time"
)

// listenerTable is one read of the listening sockets, shared by watchers.
type listenerTable struct {
	byInode map[uint64]int
	// version changes whenever the set of listening sockets changes, so a
	// watcher that saw this version has nothing new to look for.
	version uint64
}

var listenerCache struct {
	mu    sync.Mutex
	table listenerTable
	// readAt is when the last read began: a socket listening then is in it.
	readAt  time.Time
	version uint64
	reads   uint64 // how many reads were made (for tests)
}

// freshListeners reads the listening sockets now, for a look that must see
// a listener opened a moment ago (the one taken when a run becomes ready).
func freshListeners() (listenerTable, error) { return listenersNewerThan(0) }

// listenersNewerThan returns the listening sockets as read less than maxAge
// ago, reading them again when the last read is older. Many processes
// starting at once each watch their ports; sharing one read spares each of
// them reading /proc/net/tcp{,6} (every socket of the machine) on its own.
// A read that began after the call shares too, whatever maxAge: it sees
// every socket listening when the call was made. Two hundred processes
// ready at once each asking for a fresh look then wait for one read,
// where each made its own, one after another.
func listenersNewerThan(maxAge time.Duration) (listenerTable, error) {
	asked := time.Now()
	listenerCache.mu.Lock()
	defer listenerCache.mu.Unlock()
	if last := listenerCache.readAt; !last.IsZero() && (last.After(asked) || time.Since(last) < maxAge) {
		return listenerCache.table, nil
	}
	if err := readListeners(); err != nil {
		return listenerTable{}, err
	}
	return listenerCache.table, nil
}

// readListeners reads the listening sockets into listenerCache, which the
// caller holds locked.
func readListeners() error {
	began := time.Now()
	byInode, err := tcpListeners()
	if err != nil {
		return err
	}
	listenerCache.reads++
	if listenerCache.table.byInode == nil || !maps.Equal(byInode, listenerCache.table.byInode) {
		listenerCache.version++
	}
	listenerCache.table = listenerTable{byInode: byInode, version: listenerCache.version}
	listenerCache.readAt = began
	return nil
}
