package bus

import (
	"strconv"
	"strings"
	"testing"

	"github.com/procsdev/procs/compose/wire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lineEvents makes n line events of proc with lines of size bytes.
func lineEvents(proc string, first, n, size int) []wire.Event {
	evs := make([]wire.Event, n)
	for i := range evs {
		text := strconv.Itoa(first + i)
		raw := []byte(text + strings.Repeat(" ", max(size-len(text), 0)))
		evs[i] = wire.Event{Type: wire.EventLine, Proc: proc, Line: text, Raw: raw, Stream: "stdout"}
	}
	return evs
}

// The lines of one read are published at once, in order,
// with consecutive sequence numbers, to every subscriber that takes lines.
func TestPublishLinesKeepsOrder(t *testing.T) {
	bus := NewBus()
	withLines, without := bus.Subscribe(true), bus.Subscribe(false)
	bus.Publish(wire.Event{Type: wire.EventState, Proc: "a", To: "starting"})
	bus.PublishLines(lineEvents("a", 0, 3, 1))
	bus.PublishLines(lineEvents("a", 3, 2, 1))
	bus.Publish(wire.Event{Type: wire.EventState, Proc: "a", To: "ready"})

	evs, dropped := withLines.Next()
	require.Zero(t, dropped)
	require.Equal(t, 7, len(evs))
	for i, ev := range evs {
		assert.Equal(t, int64(i+1), ev.Seq)
		assert.False(t, ev.Time.IsZero())
		if ev.Type == wire.EventLine {
			assert.Equal(t, strconv.Itoa(i-1), ev.Line)
		}
	}
	evs, _ = without.Next()
	assert.Equal(t, 2, len(evs), "a subscriber without lines gets the states only")
}

// A subscriber that does not read loses line events past the bytes bound
// (counted), never state events; a giant line's pieces do not pile up.
func TestSlowSubscriberIsBoundedByBytes(t *testing.T) {
	bus := NewBus()
	sub := bus.Subscribe(true)
	const piece = 64 << 10
	pieces := 1024 // one 64 MiB line
	for i := range pieces {
		bus.PublishLines(lineEvents("a", i, 1, piece))
	}
	bus.Publish(wire.Event{Type: wire.EventState, Proc: "a", To: "ready"})
	evs, dropped := sub.Next()
	queued := 0
	for _, ev := range evs {
		queued += len(ev.Raw)
	}
	assert.LessOrEqual(t, queued, maxQueuedBytes)
	assert.Equal(t, pieces, len(evs)-1+dropped, "every piece is queued or counted")
	assert.Equal(t, wire.EventState, evs[len(evs)-1].Type, "the state event is never dropped")

	// Once read, the queue takes lines again.
	bus.PublishLines(lineEvents("a", 0, 1, 1))
	evs, dropped = sub.Next()
	assert.Equal(t, 1, len(evs))
	assert.Zero(t, dropped)
}

// A subscriber that hands back the events it has printed gets its next
// events in that slice: a steady stream does not regrow the queue.
func TestNextReusingKeepsTheQueue(t *testing.T) {
	bus := NewBus()
	sub := bus.Subscribe(true)
	batch := lineEvents("a", 0, 500, 8)
	bus.PublishLines(batch)
	spare, _ := sub.NextReusing(nil)
	allocs := testing.AllocsPerRun(20, func() {
		bus.PublishLines(batch)
		spare, _ = sub.NextReusing(spare)
	})
	assert.Zero(t, allocs)
	assert.Equal(t, 500, len(spare))
}
