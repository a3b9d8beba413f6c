package rules

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/osproc"
)

// gopsutilPortsOf is what ListeningPorts answers on macOS, FreeBSD and
// Windows (ports_other.go), run here on Linux.
func gopsutilPortsOf(t *testing.T, root int) []int {
	t.Helper()
	tree, err := ProcessTree(root)
	require.NoError(t, err)
	ports, err := osproc.ListeningPortsOf(tree)
	require.NoError(t, err)
	return ports
}

// gopsutilHolders lists the processes gopsutil sees listening on port.
func gopsutilHolders(t *testing.T, port int) []int {
	t.Helper()
	listeners, err := osproc.Listeners()
	require.NoError(t, err)
	var pids []int
	for _, l := range listeners {
		if l.Port == port {
			pids = append(pids, l.PID)
		}
	}
	slices.Sort(pids)
	return slices.Compact(pids)
}

// TestGopsutilPathAgreesWithProc compares the two ways procs reads the
// ports of a process tree, on real listening sockets (IPv4 and IPv6, in
// the child and in a grandchild): the /proc path Linux uses and the
// gopsutil path the other platforms use. Both see the same ports and the
// same holder, leave out the test's own listener, and both see the ports
// go when the listener exits.
func TestGopsutilPathAgreesWithProc(t *testing.T) {
	_, ours := listenLocal(t)
	for _, mode := range []string{"listen", "parent"} {
		t.Run(mode, func(t *testing.T) {
			h := startHelper(t, mode)
			want := slices.Sorted(slices.Values(h.ports))
			root := h.cmd.Process.Pid
			var fromProc []int
			require.Eventually(t, func() bool {
				fromProc, _ = ListeningPorts(root)
				return slices.Equal(fromProc, want)
			}, waitLong, 10*time.Millisecond, "/proc: got %v want %v", fromProc, want)
			assert.Equal(t, fromProc, gopsutilPortsOf(t, root), "gopsutil and /proc disagree")
			assert.NotContains(t, gopsutilPortsOf(t, root), ours)

			for _, port := range want {
				holder, ok := HolderOf(port)
				require.True(t, ok)
				assert.Equal(t, h.listener, holder.PID)
				assert.Equal(t, []int{h.listener}, gopsutilHolders(t, port), "gopsutil's holder of %d", port)
			}

			require.NoError(t, h.stdin.Close())
			_ = h.cmd.Wait()
			for _, port := range want {
				assert.False(t, PortInUse(port), "/proc: %d still listened on", port)
				assert.Empty(t, gopsutilHolders(t, port), "gopsutil: %d still listened on", port)
			}
		})
	}
}

// BenchmarkListeningPorts measures one look at the ports of a listening
// tree by each path: the reason Linux keeps its own.
func BenchmarkListeningPorts(b *testing.B) {
	h := startHelper(b, "parent")
	root := h.cmd.Process.Pid
	b.Run("proc", func(b *testing.B) {
		for b.Loop() {
			if _, err := ListeningPorts(root); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gopsutil", func(b *testing.B) {
		for b.Loop() {
			tree, err := ProcessTree(root)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := osproc.ListeningPortsOf(tree); err != nil {
				b.Fatal(err)
			}
		}
	})
}
