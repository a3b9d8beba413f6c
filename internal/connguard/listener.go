// Package connguard caps the connections a server holds open, so that
// peers that connect and then send nothing, or never sign in, cannot use
// up procs' file descriptors nor the slots its real clients need.
//
// Every accepted connection starts on probation. The server holds it
// (Hold) once it has earned its slot: it signed in, or a request is under
// way. When the cap is reached, a new connection evicts the oldest one
// still on probation; only when none is, is the new one refused.
//
// A listener may keep a reserve: its last slots, which a server serves
// only some requests on (procs' API: status), taken only when every other
// slot is held.
package connguard

import (
	"container/list"
	"net"
	"sync"
)

// Listener caps the connections accepted from the listener it wraps.
type Listener struct {
	net.Listener
	regularMax int
	reserveMax int
	refuse     func(net.Conn)

	mu        sync.Mutex
	regular   int       // open connections in regular slots
	reserved  int       // open connections in the reserve
	probation list.List // of *Conn, oldest first
}

// NewListener wraps ln so that at most max of its connections are open at
// once, plus reserve more in the reserve. refuse answers and closes a
// connection beyond that when none can be evicted; nil closes it.
func NewListener(ln net.Listener, max, reserve int, refuse func(net.Conn)) *Listener {
	if refuse == nil {
		refuse = func(c net.Conn) { _ = c.Close() }
	}
	return &Listener{Listener: ln, regularMax: max, reserveMax: reserve, refuse: refuse}
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
			// Answered like a refusal, so a client can tell it from a crash.
			go l.refuse(evicted.Conn)
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
	return l.regular + l.reserved
}

// admit gives c a slot: a free regular one, else that of the oldest
// regular connection on probation, else a free one of the reserve, else
// that of the oldest on probation in the reserve. Silent connections so
// never push a request into the reserve. It reports false when every slot
// is held.
func (l *Listener) admit(c *Conn) (evicted *Conn, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.regular >= l.regularMax {
		if evicted = l.evict(false); evicted == nil {
			c.reserve = true
			if l.reserved >= l.reserveMax {
				if evicted = l.evict(true); evicted == nil {
					return nil, false
				}
			}
		}
	}
	if c.reserve {
		l.reserved++
	} else {
		l.regular++
	}
	c.counted = true
	c.elem = l.probation.PushBack(c)
	return evicted, true
}

// evict frees the slot of the oldest connection on probation in the
// reserve or not, and returns it (nil if there is none); l.mu is held.
func (l *Listener) evict(reserve bool) *Conn {
	for e := l.probation.Front(); e != nil; e = e.Next() {
		if c := e.Value.(*Conn); c.reserve == reserve {
			l.uncount(c)
			return c
		}
	}
	return nil
}

// uncount frees c's slot; l.mu is held.
func (l *Listener) uncount(c *Conn) {
	if !c.counted {
		return
	}
	c.counted = false
	if c.reserve {
		l.reserved--
	} else {
		l.regular--
	}
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
	reserve bool          // in a slot of the reserve
	elem    *list.Element // in listener.probation; nil when held
}

// Close closes the connection and frees its slot.
func (c *Conn) Close() error {
	c.listener.mu.Lock()
	c.listener.uncount(c)
	c.listener.mu.Unlock()
	return c.Conn.Close()
}

// Reserved reports whether c holds a slot of the reserve.
func (c *Conn) Reserved() bool {
	c.listener.mu.Lock()
	defer c.listener.mu.Unlock()
	return c.reserve
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

// Held reports whether c is off probation.
func (c *Conn) Held() bool {
	c.listener.mu.Lock()
	defer c.listener.mu.Unlock()
	return c.counted && c.elem == nil
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
