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
