package rules

import (
	"net"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSockDiagAgreesWithProc: the kernel's sock_diag answer and
// /proc/net/tcp{,6} name the same port for real IPv4 and IPv6 listeners.
func TestSockDiagAgreesWithProc(t *testing.T) {
	want := map[uint64]int{}
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		l, err := net.Listen("tcp", addr)
		if err != nil && addr == "[::1]:0" {
			continue // no IPv6 here
		}
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
		want[socketInode(t, l.(*net.TCPListener))] = l.Addr().(*net.TCPAddr).Port
	}
	diag, err := diagListeners()
	require.NoError(t, err)
	proc, err := procListeners()
	require.NoError(t, err)
	for inode, port := range want {
		assert.Equal(t, port, diag[inode], "sock_diag, inode %d", inode)
		assert.Equal(t, port, proc[inode], "/proc, inode %d", inode)
	}
}

func socketInode(t *testing.T, l *net.TCPListener) uint64 {
	t.Helper()
	raw, err := l.SyscallConn()
	require.NoError(t, err)
	var st syscall.Stat_t
	var statErr error
	require.NoError(t, raw.Control(func(fd uintptr) { statErr = syscall.Fstat(int(fd), &st) }))
	require.NoError(t, statErr)
	return st.Ino
}

// BenchmarkListeners compares one read of the machine's listeners by
// sock_diag and by /proc/net/tcp{,6}.
func BenchmarkListeners(b *testing.B) {
	b.Run("sock_diag", func(b *testing.B) {
		for b.Loop() {
			if _, err := diagListeners(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("proc", func(b *testing.B) {
		for b.Loop() {
			if _, err := procListeners(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
