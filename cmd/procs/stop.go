package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

func (a *app) stopCommand() *cobra.Command {
	return a.actionCommand("stop", "Stop NAME... (their restart policy does not bring them back) and wait until each has stopped",
		func(c *control.Client, ctx context.Context, name string, opts control.ActionOptions) (rules.Result, error) {
			return c.Stop(ctx, name, opts)
		})
}
