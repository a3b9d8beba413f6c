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
	mu      sync.Mutex
	table   listenerTable
	readAt  time.Time
	version uint64
}

// freshListeners reads the listening sockets now, for a look that must see
// a listener opened a moment ago (the one taken when a run becomes ready).
func freshListeners() (listenerTable, error) { return listenersNewerThan(0) }

// listenersNewerThan returns the listening sockets as read less than maxAge
// ago, reading them again when the last read is older. Many processes
// starting at once each watch their ports; sharing one read spares each of
// them reading /proc/net/tcp{,6} (every socket of the machine) on its own.
func listenersNewerThan(maxAge time.Duration) (listenerTable, error) {
	listenerCache.mu.Lock()
	defer listenerCache.mu.Unlock()
	if !listenerCache.readAt.IsZero() && time.Since(listenerCache.readAt) < maxAge {
		return listenerCache.table, nil
	}
	byInode, err := tcpListeners()
	if err != nil {
		return listenerTable{}, err
	}
	if listenerCache.table.byInode == nil || !maps.Equal(byInode, listenerCache.table.byInode) {
		listenerCache.version++
	}
	listenerCache.table = listenerTable{byInode: byInode, version: listenerCache.version}
	listenerCache.readAt = time.Now()
	return listenerCache.table, nil
}
