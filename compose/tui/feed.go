package tui

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
)

// reconnectDelay is how long the feed waits before dialling a procs that
// went away (or is not there yet) again.
const reconnectDelay = 500 * time.Millisecond

// requestTimeout bounds every request the dashboard makes but the waits of
// restart and start, so a procs that stopped answering never freezes it.
const requestTimeout = 5 * time.Second

// connectedMsg says the feed reached procs: what it runs now, and the
// client the dashboard's actions use until the next disconnectedMsg.
type connectedMsg struct {
	client *control.Client
	info   control.Info
	procs  []wire.ProcStatus
}

// disconnectedMsg says the feed lost procs (or never reached it) and is
// trying again.
type disconnectedMsg struct{ err error }

// eventMsg is one event of procs' event stream.
type eventMsg wire.Event

// feed keeps the dashboard connected to the procs of one folder: it dials
// it, sends its state and then each event as messages, and dials again
// whenever procs goes away, until ctx ends.
type feed struct {
	dir  string
	send func(tea.Msg)
}

// run is the feed's loop; it returns when ctx ends.
func (f *feed) run(ctx context.Context) {
	q := newQueue()
	var wg sync.WaitGroup
	wg.Go(func() { q.forward(ctx, f.send) })
	defer wg.Wait()
	f.loop(ctx, q.push)
}

// loop dials procs again and again, pushing what it hears, until ctx ends.
func (f *feed) loop(ctx context.Context, push func(tea.Msg)) {
	for {
		err := f.session(ctx, push)
		if ctx.Err() != nil {
			return
		}
		push(disconnectedMsg{err: err})
		select {
		case <-ctx.Done():
			return
		case <-time.After(reconnectDelay):
		}
	}
}

// session is one connection: it subscribes to events first, then reads
// the list, so no state change falls between the two.
func (f *feed) session(ctx context.Context, push func(tea.Msg)) error {
	c, err := control.Dial(f.dir)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// A procs that accepts but does not answer must not hold the feed:
	// the stream has requestTimeout to open.
	openTimer := time.AfterFunc(requestTimeout, func() { cancel(errNoAnswer) })
	opened := func() error {
		if !openTimer.Stop() {
			return errNoAnswer
		}
		reqCtx, done := context.WithTimeout(ctx, requestTimeout)
		defer done()
		info, err := c.Info(reqCtx)
		if err != nil {
			return fmt.Errorf("read procs info: %w", err)
		}
		list, err := c.ListUsage(reqCtx)
		if err != nil {
			return fmt.Errorf("read process list: %w", err)
		}
		push(connectedMsg{client: c, info: info, procs: list})
		return nil
	}
	err = c.Events(ctx, control.EventsOptions{Lines: true, After: -1, OnOpen: opened}, func(ev wire.Event) error {
		push(eventMsg(ev))
		return nil
	})
	openTimer.Stop()
	switch {
	case errors.Is(context.Cause(ctx), errNoAnswer):
		return errNoAnswer
	case err == nil:
		return errProcsEnded
	}
	return err
}

// errProcsEnded is why the feed lost a procs whose stream ended cleanly.
var errProcsEnded = errors.New("procs ended")

// errNoAnswer is why the feed gave up on a procs that did not answer.
var errNoAnswer = errors.New("procs does not answer")
