package control

import (
	"context"
	"errors"
	"fmt"

	"github.com/procsdev/procs/compose/wire"
)

// DownAndWait asks procs to stop everything and returns once procs has
// ended: its event stream, opened before the request, ends only when procs
// has removed its socket and pid file. It returns an error wrapping
// ctx.Err() when procs is still stopping as ctx ends.
func (c *Client) DownAndWait(ctx context.Context) error {
	streamCtx, stopStream := context.WithCancel(ctx)
	defer stopStream()
	opened := make(chan struct{})
	streamDone := make(chan error, 1)
	go func() {
		streamDone <- c.Events(streamCtx, EventsOptions{After: -1, OnOpen: func() error { close(opened); return nil }},
			func(wire.Event) error { return nil })
	}()
	select {
	case <-opened:
	case err := <-streamDone:
		return err
	}
	if err := c.Down(ctx); err != nil && !errors.Is(err, wire.ErrShuttingDown) {
		stopStream()
		<-streamDone
		return err
	}
	err := <-streamDone
	if ctx.Err() != nil {
		return fmt.Errorf("wait for procs to stop: %w", ctx.Err())
	}
	return err
}
