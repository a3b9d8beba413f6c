package compose

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lineEvents makes n line events of proc with lines of size bytes.
func lineEvents(proc string, first, n, size int) []Event {
	evs := make([]Event, n)
	for i := range evs {
		text := strconv.Itoa(first + i)
		raw := []byte(text + strings.Repeat(" ", max(size-len(text), 0)))
		evs[i] = Event{Type: EventLine, Proc: proc, Line: text, Raw: raw, Stream: "stdout"}
	}
	return evs
}

// The lines of one read are published at once, in order,
// with consecutive sequence numbers, to every subscriber that takes lines.
func TestPublishLinesKeepsOrder(t *testing.T) {
	bus := NewBus()
	withLines, without := bus.Subscribe(true), bus.Subscribe(false)
	bus.Publish(Event{Type: EventState, Proc: "a", To: "starting"})
	bus.PublishLines(lineEvents("a", 0, 3, 1))
	bus.PublishLines(lineEvents("a", 3, 2, 1))
	bus.Publish(Event{Type: EventState, Proc: "a", To: "ready"})

	evs, dropped := withLines.Next()
	require.Zero(t, dropped)
	require.Equal(t, 7, len(evs))
	for i, ev := range evs {
		assert.Equal(t, int64(i+1), ev.Seq)
		assert.False(t, ev.Time.IsZero())
		if ev.Type == EventLine {
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
	bus.Publish(Event{Type: EventState, Proc: "a", To: "ready"})
	evs, dropped := sub.Next()
	queued := 0
	for _, ev := range evs {
		queued += len(ev.Raw)
	}
	assert.LessOrEqual(t, queued, maxQueuedBytes)
	assert.Equal(t, pieces, len(evs)-1+dropped, "every piece is queued or counted")
	assert.Equal(t, EventState, evs[len(evs)-1].Type, "the state event is never dropped")

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

// The printer's pre-rendered prefixes print what it printed before: the
// padded, coloured name; a process it was not told of looks like procs.
// Lines it could not show are counted per process, with the file that has
// them.
func TestPrinterPrefixes(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, []string{"web", "database"}, false)
	p.print([]Event{
		{Type: EventLine, Proc: "web", Raw: []byte("GET /")},
		{Type: EventLine, Proc: "new", Raw: []byte("hello")},
		{Type: EventInfo, Message: "all ready"},
	}, map[string]int{"web": 2, "database": 1})
	assert.Equal(t, "\x1b[1mprocs    | \x1b[22m1 line of database not shown (output too fast for this terminal); all are in .procs/logs/database.log\n"+
		"\x1b[1mprocs    | \x1b[22m2 lines of web not shown (output too fast for this terminal); all are in .procs/logs/web.log\n"+
		"\x1b[36mweb      | \x1b[0mGET /\n"+
		"\x1b[1mnew      | \x1b[22mhello\n"+
		"\x1b[1mprocs    | \x1b[22mall ready\n", out.String())

	out.Reset()
	p = NewPrinter(&out, []string{"web"}, true)
	p.print([]Event{{Type: EventLine, Proc: "web", Raw: []byte("\x1b[32mok\x1b[0m")}}, nil)
	assert.Equal(t, "web   | \x1b[32mok\x1b[0m\n", out.String(), "plain: no colour of procs', the child's kept")
}

// An idle reader waits with a small buffer; one that fills it reads into a
// big one from the pool until a read would have fitted the small one again
// (so 50 idle processes hold 1 KiB per stream, not 32 KiB).
func TestReadBufferGrowsForBurstsOnly(t *testing.T) {
	var buf readBuffer
	defer buf.release()
	assert.Equal(t, smallReadBuffer, len(buf.next()))
	buf.done(10)
	assert.Equal(t, smallReadBuffer, len(buf.next()), "a short read keeps the small buffer")
	buf.done(smallReadBuffer)
	assert.Equal(t, bigReadBuffer, len(buf.next()), "a full read takes the big one")
	buf.done(bigReadBuffer / 2)
	assert.Equal(t, bigReadBuffer, len(buf.next()), "still a burst")
	buf.done(100)
	assert.Nil(t, buf.big, "the big buffer goes back to the pool")
	assert.Equal(t, smallReadBuffer, len(buf.next()))
}
