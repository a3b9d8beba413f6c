package control

import (
	"bytes"
	"net/http"
	"time"

	"github.com/procsdev/procs/compose"
)

// Stream timing: a client that cannot take a write within
// streamWriteTimeout is dropped, so a stalled reader never holds events
// (or memory) for long; heartbeats reveal clients that vanished.
const (
	streamWriteTimeout = 10 * time.Second
	heartbeatInterval  = 15 * time.Second
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
	_ = sw.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	if _, err := sw.w.Write(p); err != nil {
		return err
	}
	return sw.flush()
}

func (sw *streamWriter) flush() error {
	_ = sw.rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout))
	return sw.rc.Flush()
}

// follow writes what render makes of a subscription's events until the
// client goes away or a write fails. Every heartbeatInterval it writes ping,
// or only flushes when ping is empty (a format with no comment syntax); an
// empty flush still reveals a vanished client.
func (sw *streamWriter) follow(r *http.Request, sub *compose.Subscription, ping []byte, render func(buf *bytes.Buffer, events []compose.Event, dropped int)) {
	heartbeat := time.NewTicker(heartbeatInterval)
	defer heartbeat.Stop()
	var buf bytes.Buffer
	for {
		select {
		case <-r.Context().Done():
			return
		case <-heartbeat.C:
			if sw.heartbeat(ping) != nil {
				return
			}
		case <-sub.Ready():
			events, dropped := sub.Next()
			buf.Reset()
			render(&buf, events, dropped)
			if buf.Len() > 0 && sw.write(buf.Bytes()) != nil {
				return
			}
		}
	}
}

func (sw *streamWriter) heartbeat(ping []byte) error {
	if len(ping) == 0 {
		return sw.flush()
	}
	return sw.write(ping)
}
