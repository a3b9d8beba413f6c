package control

import (
	"bytes"
	"net/http"
	"time"

	"github.com/procsdev/procs/compose/bus"
	"github.com/procsdev/procs/compose/wire"
)

// Stream timing: a client that cannot take a write within
// streamWriteTimeout is dropped, so a stalled reader never holds events
// (or memory) for long; heartbeats reveal clients that vanished.
const (
	streamWriteTimeout = 10 * time.Second
	heartbeatInterval  = 15 * time.Second
	// drainWriteTimeout bounds the last write of a stream the server ends.
	drainWriteTimeout = 200 * time.Millisecond
)

// streamWriter writes a long response in bursts, each bounded by a write
// deadline and flushed at once.
type streamWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func newStreamWriter(w http.ResponseWriter, contentType string) *streamWriter {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	sw := &streamWriter{w: w, rc: http.NewResponseController(w)}
	_ = sw.flush()
	return sw
}

// write sends p and flushes it; an error means the client is gone or stuck.
func (sw *streamWriter) write(p []byte) error {
	return sw.writeWithin(p, streamWriteTimeout)
}

// writeWithin is write with a deadline of its own.
func (sw *streamWriter) writeWithin(p []byte, limit time.Duration) error {
	_ = sw.rc.SetWriteDeadline(time.Now().Add(limit))
	if _, err := sw.w.Write(p); err != nil {
		return err
	}
	return sw.rc.Flush()
}

func (sw *streamWriter) flush() error {
	_ = sw.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	return sw.rc.Flush()
}

// follow writes what render makes of a subscription's events until the
// client goes away or a write fails. Every heartbeatInterval it writes ping,
// or only flushes when ping is empty (a format with no comment syntax); an
// empty flush still reveals a vanished client.
func (sw *streamWriter) follow(r *http.Request, sub *bus.Subscription, ping []byte, render func(buf *bytes.Buffer, events []wire.Event, dropped int)) {
	heartbeat := time.NewTicker(heartbeatInterval)
	defer heartbeat.Stop()
	var buf bytes.Buffer
	// Each batch is rendered before the next is taken, so its slice can be
	// the queue again: a client following a flood of lines does not make
	// the bus regrow a queue for every batch.
	var spare []wire.Event
	for {
		select {
		case <-r.Context().Done():
			// The server closing ends the request too, after the engine
			// published its last events (every process stopped): those
			// already queued are written before the stream ends.
			sw.drain(sub, render)
			return
		case <-heartbeat.C:
			if sw.heartbeat(ping) != nil {
				return
			}
		case <-sub.Ready():
			events, dropped := sub.NextReusing(spare)
			buf.Reset()
			render(&buf, events, bus.TotalDropped(dropped))
			spare = events
			if buf.Len() > 0 && sw.write(buf.Bytes()) != nil {
				return
			}
		}
	}
}

// drain writes the events queued for sub, if any, without waiting for more.
func (sw *streamWriter) drain(sub *bus.Subscription, render func(buf *bytes.Buffer, events []wire.Event, dropped int)) {
	select {
	case <-sub.Ready():
	default:
		return
	}
	events, dropped := sub.Next()
	var buf bytes.Buffer
	render(&buf, events, dropped)
	if buf.Len() > 0 {
		// A client that does not read holds up procs' exit no longer than this.
		_ = sw.writeWithin(buf.Bytes(), drainWriteTimeout)
	}
}

func (sw *streamWriter) heartbeat(ping []byte) error {
	if len(ping) == 0 {
		return sw.flush()
	}
	return sw.write(ping)
}
