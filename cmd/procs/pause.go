package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
)

func (a *app) pauseCommand() *cobra.Command {
	return a.idleCommand("pause", "Pause the onIdle actions of a process (a cycle in progress waits where it is)",
		func(c *control.Client, ctx context.Context, name string) (control.IdleResult, error) {
			return c.Pause(ctx, name)
		})
}

// idleCommand is pause or resume: one request, then the idle state.
func (a *app) idleCommand(verb, short string, act func(*control.Client, context.Context, string) (control.IdleResult, error)) *cobra.Command {
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   verb + " NAME",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := a.connect()
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			res, err := act(c, ctx, args[0])
			if err != nil {
				return a.clientError(err)
			}
			if jsonOut.on() {
				return jsonOut.print(res)
			}
			state := "running"
			if res.Idle.Paused {
				state = "paused"
			}
			fmt.Fprintf(a.stdout, "%s: idle actions %s (%d cycles done)\n", res.Name, state, res.Idle.Cycles)
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the idle state as JSON")
	return cmd
}
