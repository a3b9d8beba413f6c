package mcp

import (
	"bufio"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// Requests a peer without the bearer token sends: one it waits the 401 of
// and then keeps open, and one whose body never comes.
const (
	noTokenKeepAlive = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
	noTokenSlowBody  = "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
)

// TestUnauthenticatedSocketsDoNotExhaustFdsOverHTTP opens 1,200 sockets
// without the bearer token (keep-alive after a 401, slow bodies, silent
// ones): the server's descriptors stay bounded by the cap and a client
// with the token is still answered.
func TestUnauthenticatedSocketsDoNotExhaustFdsOverHTTP(t *testing.T) {
	headerTimeout := httpHeaderTimeout
	httpHeaderTimeout = time.Second
	t.Cleanup(func() { httpHeaderTimeout = headerTimeout })
	addr := serveHTTP(t, HTTPOptions{Token: "right-token"})
	baseline := testenv.OpenFDs(t)

	const perKind = 400
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
			_, _ = conn.Write([]byte(noTokenKeepAlive))
			_ = conn.SetReadDeadline(time.Now().Add(testDeadline))
			if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
				resp.Body.Close()
				assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			}
		case 1:
			_, _ = conn.Write([]byte(noTokenSlowBody))
		}
	}

	// Our client ends of the sockets stay open; the server's must not.
	serverFDs := func() int { return testenv.OpenFDs(t) - baseline - len(conns) }
	bound := maxHTTPConns + 20
	assert.Eventually(t, func() bool { return serverFDs() <= bound }, 10*time.Second, 50*time.Millisecond,
		"the server holds %d descriptors for %d unauthenticated sockets; at most %d expected", serverFDs(), len(conns), bound)
	t.Logf("the server holds %d descriptors with %d unauthenticated sockets open (cap %d)", serverFDs(), len(conns), maxHTTPConns)
	// The silent ones that were let in are closed once their headers are late.
	assert.Eventually(t, func() bool { return serverFDs() <= 20 }, 10*time.Second, 50*time.Millisecond,
		"the server still holds %d descriptors after the header timeout", serverFDs())
	t.Logf("the server holds %d descriptors after the header timeout", serverFDs())

	began := time.Now()
	status, body := post(t, addr, map[string]string{"Authorization": "Bearer right-token"})
	assert.Equal(t, http.StatusOK, status, body)
	assert.Less(t, time.Since(began), 5*time.Second, "a client with the token waited for a slot")
}
