package webui

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

// Requests a peer without the token sends: one it waits the 401 of and
// then keeps open, one whose body never comes, and nothing at all.
const (
	unauthenticatedKeepAlive = "GET /v1/procs HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
	unauthenticatedSlowBody  = "POST /v1/procs/web/restart HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{"
)

// TestUnauthenticatedSocketsDoNotExhaustFds opens 1,200 sockets without
// the token (keep-alive after a 401, slow bodies, silent ones): procs'
// descriptors stay bounded by the cap, and a signed-in page, old or new,
// still gets its answers.
func TestUnauthenticatedSocketsDoNotExhaustFds(t *testing.T) {
	headerTimeout := readHeaderTimeout
	readHeaderTimeout = time.Second
	t.Cleanup(func() { readHeaderTimeout = headerTimeout })
	h := startHarness(t, twoProcs)
	page := h.signedIn(t)
	baseline := testenv.OpenFDs(t)

	const perKind = 400
	conns := make([]net.Conn, 0, 3*perKind)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := range 3 * perKind {
		conn, err := net.Dial("tcp", h.ui.Addr())
		require.NoError(t, err)
		conns = append(conns, conn)
		switch i % 3 {
		case 0:
			_, _ = conn.Write([]byte(unauthenticatedKeepAlive))
			_ = conn.SetReadDeadline(time.Now().Add(testDeadline))
			if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
				resp.Body.Close()
				assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			}
		case 1:
			_, _ = conn.Write([]byte(unauthenticatedSlowBody))
		}
	}

	// Our client ends of the sockets stay open; procs' ends must not.
	serverFDs := func() int { return testenv.OpenFDs(t) - baseline - len(conns) }
	bound := maxConns + 20
	assert.Eventually(t, func() bool { return serverFDs() <= bound }, 10*time.Second, 50*time.Millisecond,
		"procs holds %d descriptors for %d unauthenticated sockets; at most %d expected", serverFDs(), len(conns), bound)
	t.Logf("procs holds %d descriptors with %d unauthenticated sockets open (cap %d)", serverFDs(), len(conns), maxConns)
	// The silent ones that were let in are closed once their headers are late.
	assert.Eventually(t, func() bool { return serverFDs() <= 20 }, 10*time.Second, 50*time.Millisecond,
		"procs still holds %d descriptors after the header timeout", serverFDs())
	t.Logf("procs holds %d descriptors after the header timeout", serverFDs())

	// The page signed in before, and one signed in now, both get answers.
	resp := h.do(t, page, http.MethodGet, "/v1/procs", nil)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	began := time.Now()
	resp = h.do(t, h.signedIn(t), http.MethodGet, "/v1/procs", nil)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Less(t, time.Since(began), 5*time.Second, "a new page waited for a slot")
}
