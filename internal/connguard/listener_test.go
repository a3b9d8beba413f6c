package connguard

import (
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// accepted starts l and returns its connections as they are accepted.
func accepted(t *testing.T, max, reserve int) (*Listener, <-chan *Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := NewListener(ln, max, reserve, nil)
	t.Cleanup(func() { l.Close() })
	conns := make(chan *Conn, 64)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				close(conns)
				return
			}
			conns <- c.(*Conn)
		}
	}()
	return l, conns
}

// dial connects to l and waits until it was accepted.
func dial(t *testing.T, l *Listener, conns <-chan *Conn) (client net.Conn, server *Conn) {
	t.Helper()
	client, err := net.Dial("tcp", l.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { client.Close() })
	select {
	case server = <-conns:
	case <-time.After(10 * time.Second):
		t.Fatal("not accepted")
	}
	return client, server
}

// closedByPeer reports whether the server closed the client's connection.
func closedByPeer(t *testing.T, client net.Conn) bool {
	t.Helper()
	_ = client.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	_, err := client.Read(make([]byte, 1))
	return err == io.EOF
}

func TestNewConnectionEvictsTheOldestOnProbation(t *testing.T) {
	l, conns := accepted(t, 2, 0)
	first, _ := dial(t, l, conns)
	second, _ := dial(t, l, conns)
	third, _ := dial(t, l, conns)
	assert.True(t, closedByPeer(t, first), "the oldest on probation makes room")
	assert.False(t, closedByPeer(t, second))
	assert.False(t, closedByPeer(t, third))
	assert.Equal(t, 2, l.Open())
}

func TestHeldConnectionsKeepTheirSlots(t *testing.T) {
	l, conns := accepted(t, 2, 0)
	first, held := dial(t, l, conns)
	held.Hold()
	second, _ := dial(t, l, conns)
	third, _ := dial(t, l, conns)
	assert.False(t, closedByPeer(t, first), "held")
	assert.True(t, closedByPeer(t, second), "evicted: on probation")
	assert.False(t, closedByPeer(t, third))

	// Every slot held: a newcomer is refused, and a released one is
	// evicted again.
	_, newest := dial(t, l, conns)
	newest.Hold()
	refused, err := net.Dial("tcp", l.Addr().String())
	require.NoError(t, err)
	defer refused.Close()
	assert.Eventually(t, func() bool { return closedByPeer(t, refused) }, 5*time.Second, 10*time.Millisecond)
	held.Release()
	_, _ = dial(t, l, conns)
	assert.True(t, closedByPeer(t, first), "released, then evicted")
	assert.Equal(t, 2, l.Open())
}

func TestClosedConnectionFreesItsSlot(t *testing.T) {
	l, conns := accepted(t, 1, 1)
	_, server := dial(t, l, conns)
	server.Hold()
	require.NoError(t, server.Close())
	assert.Zero(t, l.Open())
	_, next := dial(t, l, conns)
	assert.False(t, next.Reserved(), "a regular slot is free again")
}

// TestSilentConnectionsMakeRoomBeforeTheReserve: a newcomer evicts a
// regular connection on probation rather than take the reserve, and takes
// the reserve only when every regular slot is held.
func TestSilentConnectionsMakeRoomBeforeTheReserve(t *testing.T) {
	l, conns := accepted(t, 2, 1)
	silent, _ := dial(t, l, conns)
	_, busy := dial(t, l, conns)
	busy.Hold()
	_, newcomer := dial(t, l, conns)
	assert.True(t, closedByPeer(t, silent), "the silent one made room")
	assert.False(t, newcomer.Reserved())
	newcomer.Hold()
	_, last := dial(t, l, conns)
	assert.True(t, last.Reserved(), "every regular slot is held")
	_, evictor := dial(t, l, conns)
	assert.True(t, evictor.Reserved(), "took the reserve slot of the silent one")
	assert.Equal(t, 3, l.Open())
}
