package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
)

func (a *app) downCommand() *cobra.Command {
	var (
		timeout time.Duration
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "down",
		Short: "Stop every process in reverse dependency order and end the running procs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.dial()
			if err != nil {
				return err
			}
			defer c.Close()
			ctx, cancel := signalContext()
			defer cancel()
			ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
			defer cancelTimeout()
			if err := downAndWait(ctx, c); err != nil {
				return a.clientError(err)
			}
			if asJSON {
				return a.printJSON(map[string]bool{"stopped": true})
			}
			fmt.Fprintln(a.stdout, "procs stopped")
			return nil
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 2*time.Minute, "give up waiting for procs to end after this long")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the outcome as JSON")
	return cmd
}

// errStillRunning says procs did not end in time after down.
var errStillRunning = errors.New("procs is still stopping; run `procs status` to see what it waits for")

// downAndWait asks procs to stop and returns once it has: its event stream,
// opened first, ends only when procs has removed its socket and pid file.
func downAndWait(ctx context.Context, c *control.Client) error {
	opened := make(chan struct{})
	streamDone := make(chan error, 1)
	go func() {
		streamDone <- c.Events(ctx, control.EventsOptions{After: -1, OnOpen: func() error { close(opened); return nil }},
			func(compose.Event) error { return nil })
	}()
	select {
	case <-opened:
	case err := <-streamDone:
		return err
	}
	if err := c.Down(ctx); err != nil && !errors.Is(err, compose.ErrShuttingDown) {
		return err
	}
	err := <-streamDone
	if ctx.Err() != nil {
		return errStillRunning
	}
	return err
}
