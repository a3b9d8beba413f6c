package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
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
			fmt.Fprintf(a.stdout, "%s: idle actions %s\n", res.Name, idleSummary(res.Idle))
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the idle state as JSON")
	return cmd
}

// idleSummary says where the idle actions of a process are: running or
// paused, or done for good, which neither pause nor resume changes.
func idleSummary(idle wire.IdleStatus) string {
	cycles := fmt.Sprintf("%d cycles done", idle.Cycles)
	if idle.Cycles == 1 {
		cycles = "1 cycle done"
	}
	switch {
	case idle.Completed:
		return "done: the agent wrote its completeWhen marker (" + cycles + ")"
	case idle.MaxCycles > 0 && idle.Cycles >= idle.MaxCycles:
		return fmt.Sprintf("done: maxCycles %d reached (%s)", idle.MaxCycles, cycles)
	case idle.Paused:
		return "paused (" + cycles + ")"
	}
	return "running (" + cycles + ")"
}
