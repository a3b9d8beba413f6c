package rules

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const waitLong = 10 * time.Second

func listenLocal(t *testing.T) (net.Listener, int) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	return l, l.Addr().(*net.TCPAddr).Port
}

func TestListeningPortsOfTree(t *testing.T) {
	_, ours := listenLocal(t) // the test's own: must not count as the child's
	for _, mode := range []string{"listen", "parent"} {
		t.Run(mode, func(t *testing.T) {
			h := startHelper(t, mode)
			require.NotEmpty(t, h.ports)
			if mode == "parent" {
				require.NotEqual(t, h.cmd.Process.Pid, h.listener, "the listener is a grandchild")
			}
			want := slices.Sorted(slices.Values(h.ports))
			var got []int
			require.Eventually(t, func() bool {
				got, _ = ListeningPorts(h.cmd.Process.Pid)
				return slices.Equal(got, want)
			}, waitLong, 10*time.Millisecond, "ports of the tree: got %v want %v", got, want)
			assert.NotContains(t, got, ours)
		})
	}
}

func TestListeningPortsOfMissingProcess(t *testing.T) {
	_, err := ListeningPorts(1 << 30)
	assert.True(t, errors.Is(err, os.ErrNotExist), "%v", err)
}

func TestWatchPortsReportsChangeAndStops(t *testing.T) {
	_, ours := listenLocal(t)
	h := startHelper(t, "parent")
	ctx, cancel := context.WithCancel(context.Background())
	changes := make(chan []int, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		WatchPorts(ctx, h.cmd.Process.Pid, PortsBaseline{}, func(ports []int) { changes <- ports })
	}()
	select {
	case ports := <-changes:
		assert.Equal(t, slices.Sorted(slices.Values(h.ports)), ports)
		assert.NotContains(t, ports, ours)
	case <-time.After(waitLong):
		t.Fatal("no port change reported")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(waitLong):
		t.Fatal("WatchPorts did not return after cancel")
	}
}

func TestHolderOfAndPortFree(t *testing.T) {
	l, ours := listenLocal(t)
	holder, ok := HolderOf(ours)
	require.True(t, ok)
	assert.Equal(t, os.Getpid(), holder.PID)
	assert.Contains(t, holder.Cmdline, filepath.Base(os.Args[0]))

	h := startHelper(t, "parent")
	holder, ok = HolderOf(h.ports[0])
	require.True(t, ok)
	assert.Equal(t, h.listener, holder.PID, "the grandchild holds it, not its parent")

	assert.True(t, PortInUse(ours))
	err := PortFree(ours)
	var inUse *PortInUseError
	require.ErrorAs(t, err, &inUse)
	assert.Equal(t, ours, inUse.Port)
	assert.Regexp(t, `^port \d+ is in use by pid \d+ \(.+\)$`, err.Error())

	l.Close()
	assert.Eventually(t, func() bool { return !PortInUse(ours) && PortFree(ours) == nil }, waitLong, 10*time.Millisecond)
	_, ok = HolderOf(ours)
	assert.False(t, ok)
}
