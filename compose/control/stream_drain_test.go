package control

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose/bus"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// The last events of a procs that ends (each process's "stopped") are
// published before its server closes and ends the streams: a stream
// whose request ends then still writes the events already queued for it,
// so procs events and the dashboards see every process stopped.
func TestAStreamEndedByTheServerWritesWhatWasQueued(t *testing.T) {
	// Both are ready when the stream looks: which a select takes is left
	// to chance, so the end is met many times over.
	for range 50 {
		endedWithTwoQueued(t)
	}
}

func endedWithTwoQueued(t *testing.T) {
	t.Helper()
	b := bus.NewBus()
	sub := b.Subscribe(false)
	defer sub.Close()
	for _, name := range []string{"web", "db"} {
		b.Publish(wire.Event{Type: wire.EventState, Proc: name, Run: 1, To: rules.StateStopped, Time: time.Now()})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the server closed before the stream took them
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, "/v1/events", nil)
	rec := httptest.NewRecorder()
	sw := newStreamWriter(rec, "application/x-ndjson")
	sw.follow(req, sub, nil, func(buf *bytes.Buffer, events []wire.Event, _ int) {
		for _, ev := range events {
			buf.WriteString(ev.Proc + " " + string(ev.To) + "\n")
		}
	})
	assert.Equal(t, "web stopped\ndb stopped\n", rec.Body.String())
}
