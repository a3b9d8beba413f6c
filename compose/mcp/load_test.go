package mcp

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

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

	conns := testenv.Flood(t, addr, noTokenKeepAlive, noTokenSlowBody, 400)
	// Our client ends of the sockets stay open; the server's must not.
	testenv.AssertFloodBounded(t, baseline, conns, maxHTTPConns+20)

	began := time.Now()
	status, body := post(t, addr, map[string]string{"Authorization": "Bearer right-token"})
	assert.Equal(t, http.StatusOK, status, body)
	assert.Less(t, time.Since(began), 5*time.Second, "a client with the token waited for a slot")
}
