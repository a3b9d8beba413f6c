package tui

import (
	"context"
	"strconv"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
)

func texts(b *logBuffer) []string {
	var out []string
	for _, l := range b.recent() {
		out = append(out, l.text)
	}
	return out
}

func TestHistoryAndLiveLinesNeverRepeat(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	history := []control.LogLine{{Time: at(1), Line: "a"}, {Time: at(2), Line: "b"}, {Time: at(2), Line: "c"}}

	// Live lines that came before the history was read, some of them in it.
	before := &logBuffer{}
	before.add(logLine{time: at(2), text: "c"})
	before.add(logLine{time: at(3), text: "d"})
	before.prepend(history)
	assert.Equal(t, []string{"a", "b", "c", "d"}, texts(before))

	// Live lines delivered after the history, some of them in it.
	after := &logBuffer{}
	after.prepend(history)
	after.add(logLine{time: at(2), text: "c"})
	after.add(logLine{time: at(2), text: "c2"})
	after.add(logLine{time: at(3), text: "d"})
	assert.Equal(t, []string{"a", "b", "c", "c2", "d"}, texts(after))
}

func TestLogBufferKeepsTheLastLines(t *testing.T) {
	b := &logBuffer{}
	for i := range 3*maxLogLines + 7 {
		b.add(logLine{text: strconv.Itoa(i)})
	}
	got := texts(b)
	assert.Len(t, got, maxLogLines)
	assert.Equal(t, strconv.Itoa(3*maxLogLines+6), got[len(got)-1])
}

func TestQueueDropsLinesNeverStates(t *testing.T) {
	q := newQueue()
	for range maxPendingLines + 5 {
		q.push(eventMsg{Type: wire.EventLine, Line: "x"})
	}
	q.push(eventMsg{Type: wire.EventState, Proc: "web"})
	batch := q.take()
	assert.Len(t, batch, maxPendingLines+2)
	assert.Equal(t, wire.EventState, batch[maxPendingLines].(eventMsg).Type)
	assert.Equal(t, "5 lines dropped while the dashboard caught up", batch[maxPendingLines+1].(eventMsg).Message)
	assert.Empty(t, q.take())
}

func TestQueueForwardsEverythingInOrder(t *testing.T) {
	q := newQueue()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan tea.Msg)
	forwarded := make(chan struct{})
	go func() {
		defer close(forwarded)
		q.forward(ctx, func(msg tea.Msg) {
			select {
			case got <- msg:
			case <-ctx.Done():
			}
		})
	}()
	const n = 5000
	go func() {
		for i := range n {
			q.push(eventMsg{Type: wire.EventState, Seq: int64(i)})
		}
	}()
	next := int64(0)
	deadline := time.After(testDeadline)
	for next < n {
		select {
		case msg := <-got:
			for _, one := range msg.(batchMsg) {
				assert.Equal(t, next, one.(eventMsg).Seq)
				next++
			}
		case <-deadline:
			t.Fatalf("got %d of %d", next, n)
		}
	}
	cancel()
	<-forwarded
}
