package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
)

func (a *app) resumeCommand() *cobra.Command {
	return a.idleCommand("resume", "Resume the onIdle actions of a process",
		func(c *control.Client, ctx context.Context, name string) (control.IdleResult, error) {
			return c.Resume(ctx, name)
		})
}
