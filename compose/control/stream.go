package control

import (
	"net/http"
	"time"
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
