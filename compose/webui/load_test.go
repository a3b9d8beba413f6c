package webui

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

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

	conns := testenv.Flood(t, h.ui.Addr(), unauthenticatedKeepAlive, unauthenticatedSlowBody, 400)
	// Our client ends of the sockets stay open; the server's must not.
	testenv.AssertFloodBounded(t, baseline, conns, maxConns+20)

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
