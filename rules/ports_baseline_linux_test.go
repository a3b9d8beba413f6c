package rules

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWatchPortsFromABaseline: a process started after the baseline was
// taken has its listeners reported, though the watcher's first look reads
// no tree when the machine's listeners are as the baseline saw them.
func TestWatchPortsFromABaseline(t *testing.T) {
	_, err := freshListeners()
	require.NoError(t, err)
	before := PortsBefore()
	require.True(t, before.known, "a baseline from the read just made")
	h := startHelper(t, "parent")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changes := make(chan []int, 16)
	go WatchPorts(ctx, h.cmd.Process.Pid, before, func(ports []int) { changes <- ports })
	select {
	case ports := <-changes:
		assert.Equal(t, slices.Sorted(slices.Values(h.ports)), ports)
	case <-time.After(waitLong):
		t.Fatal("the listeners of a process started after the baseline were not reported")
	}
}

// TestListeningPortsSinceReadsNoTreeWhenNothingNewListens: when the
// machine's listeners are the set the baseline saw, a tree that started
// after it cannot listen, and its fd tables are not read: asked about a
// process that does not exist, the look says "no ports", where reading it
// would fail. Other tests of the package may open or close a listener in
// between, so the look is tried a few times.
func TestListeningPortsSinceReadsNoTreeWhenNothingNewListens(t *testing.T) {
	const gone = 1 << 30 // above pid_max: no such process
	_, err := ListeningPorts(gone)
	require.Error(t, err, "a look that reads the tree fails for a process that does not exist")
	for range 5 {
		_, err := freshListeners()
		require.NoError(t, err)
		ports, err := ListeningPortsSince(gone, PortsBefore(), time.Time{})
		if err == nil {
			assert.Empty(t, ports)
			return
		}
	}
	t.Fatal("the look read the tree though nothing new listened")
}

// TestListeningPortsSinceSeesANewListener: a process that started after the
// baseline and listens has its ports in the look.
func TestListeningPortsSinceSeesANewListener(t *testing.T) {
	_, err := freshListeners()
	require.NoError(t, err)
	before := PortsBefore()
	require.True(t, before.known)
	h := startHelper(t, "parent")
	ports, err := ListeningPortsSince(h.cmd.Process.Pid, before, time.Time{})
	require.NoError(t, err)
	assert.Equal(t, slices.Sorted(slices.Values(h.ports)), ports)
}

// TestListeningPortsSinceSharesAReadBegunAfterAsOf: a look as of a moment
// (a ready line read then) takes a read of the machine's listeners that
// began since, made for another run, and sees what listened at that
// moment; a look as of a later moment reads again.
func TestListeningPortsSinceSharesAReadBegunAfterAsOf(t *testing.T) {
	_, err := freshListeners()
	require.NoError(t, err)
	before := PortsBefore()
	h := startHelper(t, "parent") // listening once started
	want := slices.Sorted(slices.Values(h.ports))
	asOf := time.Now()
	_, err = freshListeners() // another run's look, begun after asOf
	require.NoError(t, err)
	reads := listenerReads()

	ports, err := ListeningPortsSince(h.cmd.Process.Pid, before, asOf)
	require.NoError(t, err)
	assert.Equal(t, want, ports)
	assert.Equal(t, reads, listenerReads(), "a read begun after asOf is shared")

	ports, err = ListeningPortsSince(h.cmd.Process.Pid, before, time.Now())
	require.NoError(t, err)
	assert.Equal(t, want, ports)
	assert.Equal(t, reads+1, listenerReads(), "no read began after the second look's moment")
}

// TestPortsBeforeTheFirstReadReadsOnce: the first start of a procs makes
// the first read of the machine's listeners, so that its baseline is
// known and its ready look reads no fd table; the starts after it share
// that read.
func TestPortsBeforeTheFirstReadReadsOnce(t *testing.T) {
	listenerCache.mu.Lock()
	saved := listenerCache.readAt
	listenerCache.readAt = time.Time{} // as in a procs that has read nothing
	reads := listenerCache.reads
	listenerCache.mu.Unlock()
	t.Cleanup(func() {
		listenerCache.mu.Lock()
		if listenerCache.readAt.IsZero() {
			listenerCache.readAt = saved
		}
		listenerCache.mu.Unlock()
	})

	first, second := PortsBefore(), PortsBefore()
	assert.True(t, first.known, "the first start's baseline")
	assert.Equal(t, first, second)
	assert.Equal(t, reads+1, listenerReads(), "one read for both starts")
}
