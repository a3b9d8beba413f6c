package mcp

import (
	"context"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
)

// notifyInterval spaces the update notifications of a chatty process: a
// client told that a log changed re-reads it, and needs no more than a few
// such hints a second.
const notifyInterval = 200 * time.Millisecond

// logWatch turns new output lines into resources/updated notifications
// for procs://logs/{name}. It follows the control API's event stream (no
// polling), and only once a client has subscribed and while procs answers;
// a procs that answers again later (started by up, or in a terminal) is
// followed again from the next tool call.
type logWatch struct {
	dial   func() (*control.Client, error)
	notify func(ctx context.Context, name string)

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // the follower and the notifier

	mu        sync.Mutex
	wanted    bool            // a client has subscribed to a log
	following bool            // the follower runs
	notifying bool            // the notifier runs
	opened    chan struct{}   // closed once the follower's stream is open, or it gave up
	closed    bool            // close has been called
	dirty     map[string]bool // processes with lines not yet notified

	pending chan struct{} // wakes the notifier; capacity 1
}

func newLogWatch(dial func() (*control.Client, error), notify func(ctx context.Context, name string)) *logWatch {
	ctx, cancel := context.WithCancel(context.Background())
	return &logWatch{
		dial: dial, notify: notify, ctx: ctx, cancel: cancel,
		dirty: make(map[string]bool), pending: make(chan struct{}, 1),
	}
}

// subscribe accepts a subscription to a log (or to the config, which never
// changes while procs runs) and starts following. It returns once the
// event stream is open, so every line printed after it is announced.
func (w *logWatch) subscribe(ctx context.Context, req *sdk.SubscribeRequest) error {
	uri := req.Params.URI
	if uri == configURI {
		return nil
	}
	w.mu.Lock()
	w.wanted = true
	w.mu.Unlock()
	select {
	case <-w.resume():
	case <-ctx.Done():
	}
	return nil
}

// unsubscribe needs no work: the SDK keeps the subscribers of each URI and
// sends a notification only to them.
func (w *logWatch) unsubscribe(context.Context, *sdk.UnsubscribeRequest) error { return nil }

// resume starts following the event stream if a client wants updates and
// nothing follows it yet. The channel it returns is closed once the
// stream is open (or following gave up: no procs answers).
func (w *logWatch) resume() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.wanted || w.closed {
		return closedChan
	}
	if !w.notifying {
		w.notifying = true
		w.wg.Go(w.notifyLoop)
	}
	if !w.following {
		w.following = true
		opened := make(chan struct{})
		w.opened = opened
		w.wg.Go(func() { w.follow(opened) })
	}
	return w.opened
}

// closedChan is a channel that is already closed.
var closedChan = func() chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}()

// follow marks processes that print lines until procs stops or the watch
// closes, closing opened once its stream is open.
func (w *logWatch) follow(opened chan struct{}) {
	var once sync.Once
	signalOpen := func() error { once.Do(func() { close(opened) }); return nil }
	defer func() {
		w.mu.Lock()
		w.following = false
		w.mu.Unlock()
		_ = signalOpen()
	}()
	c, err := w.dial()
	if err != nil {
		return // no procs: the next tool call that reaches one resumes
	}
	defer c.Close()
	// Dropped lines need no mark of their own: they are dropped only
	// while lines flood in, and the lines after them mark their process.
	_ = c.Events(w.ctx, control.EventsOptions{Lines: true, After: -1, OnOpen: signalOpen}, func(ev wire.Event) error {
		if ev.Type == wire.EventLine {
			w.markDirty(ev.Proc)
		}
		return nil
	})
}

func (w *logWatch) markDirty(name string) {
	w.mu.Lock()
	w.dirty[name] = true
	w.mu.Unlock()
	select {
	case w.pending <- struct{}{}:
	default: // the notifier is already due to run
	}
}

// notifyLoop sends one notification per changed log, at most one batch
// per notifyInterval.
func (w *logWatch) notifyLoop() {
	for {
		select {
		case <-w.ctx.Done():
			return
		case <-w.pending:
		}
		w.mu.Lock()
		names := w.dirty
		w.dirty = make(map[string]bool)
		w.mu.Unlock()
		for name := range names {
			w.notify(w.ctx, name)
		}
		select {
		case <-w.ctx.Done():
			return
		case <-time.After(notifyInterval):
		}
	}
}

// close stops following and notifying and waits for both to end.
func (w *logWatch) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.cancel()
	w.wg.Wait()
}
