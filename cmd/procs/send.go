package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) sendCommand() *cobra.Command {
	var enter, asJSON bool
	cmd := &cobra.Command{
		Use:   "send NAME TEXT",
		Short: "Write TEXT to the input (or terminal) of a running process",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.dial()
			if err != nil {
				return err
			}
			defer c.Close()
			ctx, cancel := signalContext()
			defer cancel()
			if err := c.Input(ctx, args[0], args[1], enter); err != nil {
				return a.clientError(err)
			}
			if asJSON {
				return a.printJSON(map[string]any{"name": args[0], "sent": true})
			}
			fmt.Fprintf(a.stdout, "sent to %s\n", args[0])
			return nil
		},
	}
	cmd.Flags().BoolVar(&enter, "enter", false, "press Enter after the text")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the outcome as JSON")
	return cmd
}
