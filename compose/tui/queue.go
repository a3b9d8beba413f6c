package tui

import (
	"context"
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
)

// maxPendingLines bounds the lines waiting for the dashboard; past it,
// new lines are dropped (and counted) until it catches up. State events
// are never dropped.
const maxPendingLines = 20000

// batchMsg is what the feed received since the dashboard last took it,
// in order: connectedMsg, disconnectedMsg and eventMsg.
type batchMsg []tea.Msg

// queue holds what the feed received until the dashboard takes it, so
// reading the event stream never waits on drawing: a process that floods
// its output cannot make procs cut the stream of a slow reader.
type queue struct {
	mu      sync.Mutex
	pending []tea.Msg
	lines   int
	dropped int
	ready   chan struct{} // holds a token while pending is not empty
}

func newQueue() *queue { return &queue{ready: make(chan struct{}, 1)} }

// push adds a message, dropping a line when too many wait.
func (q *queue) push(msg tea.Msg) {
	q.mu.Lock()
	if ev, ok := msg.(eventMsg); ok && ev.Type == wire.EventLine {
		if q.lines >= maxPendingLines {
			q.dropped++
			q.mu.Unlock()
			return
		}
		q.lines++
	}
	q.pending = append(q.pending, msg)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take returns what waits, with a note of the lines dropped, if any.
func (q *queue) take() batchMsg {
	q.mu.Lock()
	defer q.mu.Unlock()
	batch := batchMsg(q.pending)
	if q.dropped > 0 {
		batch = append(batch, eventMsg{Type: control.EventDropped, Message: fmt.Sprintf("%d lines dropped while the dashboard caught up", q.dropped)})
	}
	q.pending, q.lines, q.dropped = nil, 0, 0
	return batch
}

// forward sends batches to the dashboard until ctx ends.
func (q *queue) forward(ctx context.Context, send func(tea.Msg)) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-q.ready:
			if batch := q.take(); len(batch) > 0 {
				send(batch)
			}
		}
	}
}
