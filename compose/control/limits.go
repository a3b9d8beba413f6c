package control

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/connguard"
)

// Connection limits: a local client that opens connections and trickles
// their bodies must not exhaust procs' descriptors nor keep the owner
// from seeing the status. Variables so tests can shorten them.
var (
	// maxConns is how many connections are served at once.
	maxConns = 256
	// reservedConns are served beyond maxConns, for status requests only,
	// so `procs status` answers while the others are taken.
	reservedConns = 8
	// bodyReadTimeout bounds receiving a request body.
	bodyReadTimeout = 10 * time.Second
)

// busyMessage is the error of a request refused for lack of a slot.
const busyMessage = "procs is busy: too many connections to its API; try again"

// busyResponse answers a connection beyond every limit, before reading it.
var busyResponse = func() string {
	body := `{"error":"` + busyMessage + `"}` + "\n"
	return fmt.Sprintf("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}()

// reservedKey marks, in a connection's context, one served from the
// reserve: it may only ask for status.
type reservedKey struct{}

// limitConns caps the connections of ln at maxConns plus the reserve,
// answering those beyond with a 503 before reading them. A connection
// that sends nothing or waits idle is on probation: a newcomer evicts it
// when the slots are taken, so silent connections neither fill the
// regular slots nor hold the reserve kept for status.
func limitConns(ln net.Listener) *connguard.Listener {
	return connguard.NewListener(ln, maxConns, reservedConns, refuseBusy)
}

// refuseBusy answers 503 without reading the request and closes.
func refuseBusy(conn net.Conn) {
	_ = conn.SetWriteDeadline(time.Now().Add(time.Second))
	_, _ = io.WriteString(conn, busyResponse)
	_ = conn.Close()
}

// trackConnState holds a connection's slot while it serves a request, and
// puts it back on probation when it waits between requests.
func trackConnState(conn net.Conn, state http.ConnState) {
	c, ok := conn.(*connguard.Conn)
	if !ok {
		return
	}
	switch state {
	case http.StateActive, http.StateHijacked:
		c.Hold()
	case http.StateIdle:
		c.Release()
	}
}

// connContext records in the context whether conn uses a reserved slot.
func connContext(ctx context.Context, conn net.Conn) context.Context {
	if c, ok := conn.(*connguard.Conn); ok && c.Reserved() {
		return context.WithValue(ctx, reservedKey{}, true)
	}
	return ctx
}

// statusRequest reports whether r only reads status, which a reserved
// connection may ask for.
func statusRequest(r *http.Request) bool {
	if r.Method != http.MethodGet {
		return false
	}
	switch p := r.URL.Path; {
	case p == "/v1/info", p == "/v1/procs":
		return true
	case len(p) > len("/v1/procs/"):
		rest := p[len("/v1/procs/"):]
		return !bytes.ContainsRune([]byte(rest), '/')
	}
	return false
}

// limitRequests applies the limits to each request: a reserved connection
// serves one status request; a body must arrive within bodyReadTimeout,
// read whole before the handler runs so no handler waits on a slow client.
func limitRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if reserved, _ := r.Context().Value(reservedKey{}).(bool); reserved {
			if !statusRequest(r) {
				// Read no more of it: answer and close at once.
				_ = rc.SetReadDeadline(time.Now())
				w.Header().Set("Connection", "close")
				writeError(w, http.StatusServiceUnavailable, busyMessage)
				return
			}
			w.Header().Set("Connection", "close")
		}
		if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			_ = rc.SetReadDeadline(time.Now().Add(bodyReadTimeout))
			data, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
			if err != nil {
				_ = rc.SetReadDeadline(time.Now())
				w.Header().Set("Connection", "close")
				writeError(w, http.StatusRequestTimeout, "request body not received within %s", bodyReadTimeout)
				return
			}
			_ = rc.SetReadDeadline(time.Time{})
			r.Body = io.NopCloser(bytes.NewReader(data))
		}
		next.ServeHTTP(w, r)
	})
}

// busyRetryFor bounds how long a client sends a read again that procs
// refused as busy.
const busyRetryFor = 2 * time.Second

// whileBusy runs attempt, and again while procs refuses it for lack of a
// slot (its 503 "try again", or the connection it closed before the
// request was written), on a short backoff, for at most busyRetryFor or
// until ctx ends. Only reads go through it: sent twice, they change
// nothing. A burst of connections (a script, a stuck client) that takes
// every slot for a moment then costs `procs status` a retry, not an error.
func whileBusy(ctx context.Context, attempt func() error) error {
	deadline := time.Now().Add(busyRetryFor)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := attempt()
		if !refusedAsBusy(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// refusedAsBusy reports whether err is procs refusing a connection for
// lack of a slot.
func refusedAsBusy(err error) bool {
	var apiErr *APIError
	switch {
	case errors.As(err, &apiErr):
		return apiErr.Status == http.StatusServiceUnavailable && apiErr.Message == busyMessage
	case errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNRESET):
		// Refused before the request was written: the 503 is lost.
		return true
	}
	return false
}
