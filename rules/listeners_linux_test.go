package rules

import (
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFreshListenersShareAReadThatBeganAfterThem: many runs ready at once
// each ask for a fresh look at the listening sockets; those that wait while
// another reads share the next read (it began after they asked) instead of
// each making its own, and every one of them sees a socket that listened
// before it asked.
func TestFreshListenersShareAReadThatBeganAfterThem(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	inode := socketInode(t, ln.(*net.TCPListener))

	const callers = 50
	before := listenerReads()
	start := make(chan struct{})
	var wg sync.WaitGroup
	seen := make([]bool, callers)
	for i := range callers {
		wg.Go(func() {
			<-start
			table, err := freshListeners()
			if err == nil {
				_, seen[i] = table.byInode[inode]
			}
		})
	}
	// The callers ask while a read holds the cache (as when two hundred
	// runs become ready during one), so that all of them have asked
	// before the next read begins, however the scheduler spreads them.
	listenerCache.mu.Lock()
	close(start)
	time.Sleep(200 * time.Millisecond)
	listenerCache.mu.Unlock()
	wg.Wait()
	reads := listenerReads() - before

	for i := range callers {
		assert.True(t, seen[i], "caller %d did not see a socket listening before it asked", i)
	}
	assert.Less(t, reads, uint64(callers/2), "%d callers asking at once made %d reads", callers, reads)
}

// listenerReads is how many reads of the machine's listeners were made.
func listenerReads() uint64 {
	listenerCache.mu.Lock()
	defer listenerCache.mu.Unlock()
	return listenerCache.reads
}
