package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

func (a *app) startCommand() *cobra.Command {
	return a.actionCommand("start", "Start stopped or failed NAME... and wait until each is ready (exit 1 if one fails)", startAction)
}

// startAction starts one process (procs start, procs up --profile).
func startAction(c *control.Client, ctx context.Context, name string, opts control.ActionOptions) (rules.Result, error) {
	return c.Start(ctx, name, opts)
}
