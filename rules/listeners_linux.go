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
// a listener opened a moment ago.
func freshListeners() (listenerTable, error) { return listenersReadSince(time.Now()) }

// listenersNewerThan returns the listening sockets as read less than maxAge
// ago, reading them again when the last read is older.
func listenersNewerThan(maxAge time.Duration) (listenerTable, error) {
	return listenersReadSince(time.Now().Add(-maxAge))
}

// listenersReadSince returns the listening sockets from a read that began
// at since or later: it holds every socket that listened at since. Many
// processes starting at once each watch their ports, and each looks once
// more when it becomes ready; sharing one read spares each of them reading
// every socket of the machine on its own. A read that began while a caller
// waited shares too: two hundred processes ready at once wait for one
// read, where each made its own, one after another.
func listenersReadSince(since time.Time) (listenerTable, error) {
	listenerCache.mu.Lock()
	defer listenerCache.mu.Unlock()
	if last := listenerCache.readAt; !last.IsZero() && !last.Before(since) {
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
