package connguard

import (
	"context"
	"net"
	"net/http"
	"time"
)

// connKey keys the *Conn in a request's context.
type connKey struct{}

// ConnContext is an http.Server ConnContext that lets handlers find their
// connection (SignIn, CloseUnlessSignedIn).
func ConnContext(ctx context.Context, conn net.Conn) context.Context {
	if c, ok := conn.(*Conn); ok {
		return context.WithValue(ctx, connKey{}, c)
	}
	return ctx
}

// FromContext returns the connection of a request served through
// ConnContext, or nil.
func FromContext(ctx context.Context) *Conn {
	c, _ := ctx.Value(connKey{}).(*Conn)
	return c
}

// SignIn keeps the connection of r, which showed the server's token,
// open after its answer and in its slot.
func SignIn(w http.ResponseWriter, r *http.Request) {
	w.Header().Del("Connection")
	if c := FromContext(r.Context()); c != nil {
		c.Hold()
	}
}

// CloseUnlessSignedIn serves next, and closes the connection after the
// answer unless the request signed in (SignIn): a peer without the token
// gets one answer per connection, and the rest of a body it never sends
// is not waited for.
func CloseUnlessSignedIn(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		next.ServeHTTP(w, r)
		if c := FromContext(r.Context()); c != nil && !c.Held() {
			// Else net/http reads what is left of the body before closing,
			// with no deadline: a slow body would hold the connection.
			_ = http.NewResponseController(w).SetReadDeadline(time.Now())
		}
	})
}
