// Package bus is the procs event bus: one publisher side (the engine loop
// and the output readers) fans events out to subscribers (the printer, the
// control API's streams), each with its own bounded queue, so a slow
// subscriber never blocks a publisher or the others.
//
// It is a leaf beside compose/wire: it imports the standard library and
// wire, nothing of the engine, so the control server can stream events
// without linking the engine.
package bus

import (
	"slices"
	"sync"
	"time"
	"unsafe"

	"github.com/procsdev/procs/compose/wire"
)

// maxQueuedBytes and maxQueuedLines bound what a slow subscriber can hold
// back; past either, line events are dropped for that subscriber and
// counted. The bytes bound is the one that matters: it lets a terminal
// fall a few hundred thousand bytes of short lines behind a burst without
// losing any, and keeps a giant line (64 KiB pieces) from piling up
// hundreds of megabytes behind it.
const (
	maxQueuedBytes = 8 << 20
	maxQueuedLines = 64 << 10
)

// queuedSize is what a queued line event is counted as against
// maxQueuedBytes: its bytes and the event itself.
func queuedSize(ev *wire.Event) int { return len(ev.Raw) + int(unsafe.Sizeof(wire.Event{})) }

// Bus fans events out to subscribers, each with its own queue, so a slow
// subscriber never blocks the publisher or the others.
type Bus struct {
	mu      sync.Mutex
	seq     int64
	subs    map[*Subscription]struct{}
	history []wire.Event // recent state events, for late subscribers and resumption
}

// historySize is how many recent state events the bus keeps.
const historySize = 1024

// NewBus returns an empty bus.
func NewBus() *Bus {
	return &Bus{subs: make(map[*Subscription]struct{})}
}

// Publish stamps ev with a sequence number and queues it for every subscriber.
func (b *Bus) Publish(ev wire.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	ev.Seq = b.seq
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	if ev.Type != wire.EventLine {
		b.history = append(b.history, ev)
		if len(b.history) > historySize {
			b.history = b.history[len(b.history)-historySize:]
		}
	}
	for s := range b.subs {
		s.push(ev)
	}
}

// PublishLines publishes the line events of one read at once: one lock and
// one wake-up per subscriber instead of one per line. The events get
// consecutive sequence numbers, so they stay in order for every subscriber.
// evs is not kept: the caller may reuse it. It reports whether a
// subscriber is more than half way to dropping lines: a publisher that can
// wait a moment (yield) gives it the chance to catch up.
func (b *Bus) PublishLines(evs []wire.Event) (behind bool) {
	if len(evs) == 0 {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	for i := range evs {
		b.seq++
		evs[i].Seq = b.seq
		if evs[i].Time.IsZero() {
			evs[i].Time = now
		}
	}
	behind = false
	for s := range b.subs {
		behind = s.pushLines(evs) || behind
	}
	return behind
}

// History returns a copy of the kept state and info events, oldest first:
// what a reader of past output needs to know about it (where runs began).
func (b *Bus) History() []wire.Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.history)
}

// Subscribe returns a subscription receiving every event published from now
// on. With lines false, line events are not delivered to it.
func (b *Bus) Subscribe(lines bool) *Subscription {
	return b.SubscribeSince(-1, lines)
}

// SubscribeSince is Subscribe, but first replays the kept state events with a
// sequence number above after (after < 0 replays nothing).
func (b *Bus) SubscribeSince(after int64, lines bool) *Subscription {
	s := &Subscription{bus: b, lines: lines, ready: make(chan struct{}, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if after >= 0 {
		for _, ev := range b.history {
			if ev.Seq > after {
				s.push(ev)
			}
		}
	}
	b.subs[s] = struct{}{}
	return s
}

// Subscription is one subscriber's queue of events.
type Subscription struct {
	bus   *Bus
	lines bool
	ready chan struct{}

	mu          sync.Mutex
	queue       []wire.Event
	queued      int // line events in queue
	queuedBytes int // their queuedSize
	// dropped counts the line events dropped since the last Next, by process.
	dropped map[string]int
	closed  bool
}

func (s *Subscription) push(ev wire.Event) {
	if ev.Type == wire.EventLine && !s.lines {
		return
	}
	s.mu.Lock()
	if ev.Type == wire.EventLine && !s.room(&ev) {
		s.drop(ev.Proc)
		s.mu.Unlock()
		return
	}
	s.queue = append(s.queue, ev)
	s.mu.Unlock()
	s.wake()
}

// pushLines queues the line events evs, dropping (and counting) those past
// the bounds; it reports whether the queue is past half its bounds.
func (s *Subscription) pushLines(evs []wire.Event) (behind bool) {
	if !s.lines {
		return false
	}
	s.mu.Lock()
	for i := range evs {
		if !s.room(&evs[i]) {
			s.drop(evs[i].Proc)
			continue
		}
		s.queue = append(s.queue, evs[i])
	}
	behind = s.queuedBytes > maxQueuedBytes/2 || s.queued > maxQueuedLines/2
	s.mu.Unlock()
	s.wake()
	return behind
}

// room counts the line event ev as queued if the bounds allow it. Callers
// hold mu.
func (s *Subscription) room(ev *wire.Event) bool {
	size := queuedSize(ev)
	if s.queued >= maxQueuedLines || (s.queued > 0 && s.queuedBytes+size > maxQueuedBytes) {
		return false
	}
	s.queued++
	s.queuedBytes += size
	return true
}

// drop counts a line event of proc not queued. Callers hold mu.
func (s *Subscription) drop(proc string) {
	if s.dropped == nil {
		s.dropped = map[string]int{}
	}
	s.dropped[proc]++
}

func (s *Subscription) wake() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Ready is signalled when events may be waiting; call Next to take them.
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Next takes every queued event, and the number of line events dropped since
// the last call because the subscriber was too slow.
func (s *Subscription) Next() (events []wire.Event, dropped int) {
	events, byProc := s.NextReusing(nil)
	return events, TotalDropped(byProc)
}

// TotalDropped adds up the line events NextReusing says were dropped for
// each process.
func TotalDropped(byProc map[string]int) (total int) {
	for _, n := range byProc {
		total += n
	}
	return total
}

// NextReusing is Next for a subscriber that is done with the events of its
// previous call: their slice, spare (as that call returned it), becomes the
// queue again, so a steady stream of lines does not regrow a queue from
// nothing after every call. The dropped line events are counted by
// process (nil when none were).
func (s *Subscription) NextReusing(spare []wire.Event) (events []wire.Event, dropped map[string]int) {
	clear(spare) // keep no line bytes alive through the spare slice
	s.mu.Lock()
	defer s.mu.Unlock()
	if spare == nil {
		// The first call: a queue as big as this one saves regrowing it.
		spare = make([]wire.Event, 0, len(s.queue))
	}
	events, s.queue = s.queue, spare[:0]
	dropped, s.dropped = s.dropped, nil
	s.queued, s.queuedBytes = 0, 0
	return events, dropped
}

// Close stops delivery to the subscription.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	delete(s.bus.subs, s)
	s.bus.mu.Unlock()
}
