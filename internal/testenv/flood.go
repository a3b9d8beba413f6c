package testenv

import (
	"bufio"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Flood opens 3*perKind TCP connections to addr that never authenticate,
// as anyone on the machine could: a third send keepAlive and read its 401
// (and keep the connection), a third send slowBody (whose body never
// comes), a third send nothing. They close when the test ends.
func Flood(t testing.TB, addr, keepAlive, slowBody string, perKind int) []net.Conn {
	t.Helper()
	conns := make([]net.Conn, 0, 3*perKind)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := range 3 * perKind {
		conn, err := net.Dial("tcp", addr)
		require.NoError(t, err)
		conns = append(conns, conn)
		switch i % 3 {
		case 0:
			_, _ = conn.Write([]byte(keepAlive))
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
				resp.Body.Close()
				assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			}
		case 1:
			_, _ = conn.Write([]byte(slowBody))
		}
	}
	return conns
}

// AssertFloodBounded checks what a server in this process holds for the
// flood conns (Flood): the descriptors beyond baseline (OpenFDs before the
// flood), not counting the test's own ends, stay within bound, the server's
// connection cap plus slack, and fall back near baseline once its header
// timeout has closed the silent ones.
func AssertFloodBounded(t testing.TB, baseline int, conns []net.Conn, bound int) {
	t.Helper()
	held := func() int { return OpenFDs(t) - baseline - len(conns) }
	assert.Eventually(t, func() bool { return held() <= bound }, 10*time.Second, 50*time.Millisecond,
		"the server holds %d descriptors for %d unauthenticated sockets; at most %d expected", held(), len(conns), bound)
	t.Logf("the server holds %d descriptors with %d unauthenticated sockets open", held(), len(conns))
	assert.Eventually(t, func() bool { return held() <= 20 }, 10*time.Second, 50*time.Millisecond,
		"the server still holds %d descriptors after the header timeout", held())
	t.Logf("the server holds %d descriptors after the header timeout", held())
}
