package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

func (a *app) downCommand() *cobra.Command {
	var (
		timeout time.Duration
		jsonOut *jsonOutput
	)
	cmd := &cobra.Command{
		Use:   "down",
		Short: "Stop every process in reverse dependency order and end the running procs",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := a.connect()
			if errors.Is(err, errNoProcs) {
				// Idempotent, so `trap 'procs down' EXIT` works.
				if jsonOut.on() {
					return jsonOut.print(map[string]bool{"stopped": true, "running": false})
				}
				fmt.Fprintln(a.stdout, "procs is not running")
				return nil
			}
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
			defer cancelTimeout()
			if err := c.DownAndWait(ctx); err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					err = errStillRunning
				}
				return a.clientError(err)
			}
			if jsonOut.on() {
				return jsonOut.print(map[string]bool{"stopped": true})
			}
			fmt.Fprintln(a.stdout, "procs stopped")
			return nil
		},
	}
	cmd.Flags().DurationVar(&timeout, "timeout", 2*time.Minute, "give up waiting for procs to end after this long")
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the outcome as JSON")
	return cmd
}

// errStillRunning says procs did not end in time after down.
var errStillRunning = errors.New("procs is still stopping; run `procs status` to see what it waits for")
