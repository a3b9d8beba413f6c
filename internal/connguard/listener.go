// Package connguard caps the connections a server holds open, so that
// peers that connect and then send nothing, or never sign in, cannot use
// up procs' file descriptors nor the slots its real clients need.
//
// Every accepted connection starts on probation. The server holds it
// (Hold) once it has earned its slot: it signed in, or a request is under
// way. When the cap is reached, a new connection evicts the oldest one
// still on probation; only when none is, is the new one refused.
package connguard

import (
	"container/list"
	"context"
	"net"
	"sync"
)

// Listener caps the connections accepted from the listener it wraps.
type Listener struct {
	net.Listener
	max    int
	refuse func(net.Conn)

	mu        sync.Mutex
	open      int
	probation list.List // of *Conn, oldest first
}

// NewListener wraps ln so that at most max of its connections are open at
// once. refuse answers and closes a connection beyond max when none can
// be evicted; nil closes it.
func NewListener(ln net.Listener, max int, refuse func(net.Conn)) *Listener {
	if refuse == nil {
		refuse = func(c net.Conn) { _ = c.Close() }
	}
	return &Listener{Listener: ln, max: max, refuse: refuse}
}

// Accept returns the next connection within the cap. Its errors are the
// wrapped listener's, unchanged: net/http backs off and accepts again
// after a temporary one (EMFILE) rather than stopping.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c := &Conn{Conn: conn, listener: l}
		evicted, ok := l.admit(c)
		if evicted != nil {
			_ = evicted.Conn.Close()
		}
		if !ok {
			go l.refuse(conn)
			continue
		}
		return c, nil
	}
}

// Open is how many accepted connections are open.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

// admit counts c in, evicting the oldest connection on probation when the
// cap is reached; it reports false when every slot is held.
func (l *Listener) admit(c *Conn) (evicted *Conn, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open >= l.max {
		front := l.probation.Front()
		if front == nil {
			return nil, false
		}
		evicted = front.Value.(*Conn)
		l.uncount(evicted)
	}
	l.open++
	c.counted = true
	c.slot = l.open
	c.elem = l.probation.PushBack(c)
	return evicted, true
}

// uncount frees c's slot; l.mu is held.
func (l *Listener) uncount(c *Conn) {
	if !c.counted {
		return
	}
	c.counted = false
	l.open--
	if c.elem != nil {
		l.probation.Remove(c.elem)
		c.elem = nil
	}
}

// Conn is a connection accepted by a Listener.
type Conn struct {
	net.Conn
	listener *Listener
	// Guarded by listener.mu.
	counted bool
	slot    int           // how many were open, this one included, when it was accepted
	elem    *list.Element // in listener.probation; nil when held
}

// Close closes the connection and frees its slot.
func (c *Conn) Close() error {
	c.listener.mu.Lock()
	c.listener.uncount(c)
	c.listener.mu.Unlock()
	return c.Conn.Close()
}

// Slot is how many connections were open, this one included, when it
// was accepted: a server that keeps its last slots for some requests
// tells them by it.
func (c *Conn) Slot() int {
	c.listener.mu.Lock()
	defer c.listener.mu.Unlock()
	return c.slot
}

// Hold takes c off probation: it keeps its slot until closed.
func (c *Conn) Hold() {
	l := c.listener
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.elem != nil {
		l.probation.Remove(c.elem)
		c.elem = nil
	}
}

// Release puts c back on probation, as the youngest: a newcomer may evict
// it once the cap is reached.
func (c *Conn) Release() {
	l := c.listener
	l.mu.Lock()
	defer l.mu.Unlock()
	if c.counted && c.elem == nil {
		c.elem = l.probation.PushBack(c)
	}
}

// connKey keys the *Conn in a request's context.
type connKey struct{}

// ConnContext is an http.Server ConnContext that lets handlers find their
// connection (HoldConn).
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

// HoldConn holds the connection of the request ctx belongs to, once it
// has signed in.
func HoldConn(ctx context.Context) {
	if c := FromContext(ctx); c != nil {
		c.Hold()
	}
}
