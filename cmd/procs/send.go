package main

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
)

func (a *app) sendCommand() *cobra.Command {
	var enter, force, asJSON bool
	cmd := &cobra.Command{
		Use:   "send NAME TEXT",
		Short: "Write TEXT to the input (or terminal) of a running process",
		Long: `Write TEXT to the input (or terminal) of a running process.

An interactive process (an agent CLI, a shell, a REPL) that is not ready for
input (busy, starting) refuses it, naming its state, and send exits 1;
--force sends anyway. With --enter, an interactive process counts as busy
until it answers, so 'procs wait NAME --for ready' right after waits for the
answer.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, ctx, done, err := a.connect()
			if err != nil {
				return err
			}
			defer done()
			err = c.Send(ctx, args[0], control.InputRequest{Text: args[1], Enter: enter, Force: force})
			var apiErr *control.APIError
			if asJSON && errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict && apiErr.State != "" {
				_ = a.printJSON(map[string]any{"name": args[0], "sent": false, "state": apiErr.State, "error": apiErr.Message})
				return silentExit(exitFailure)
			}
			if err != nil {
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
	cmd.Flags().BoolVar(&force, "force", false, "send even if the process is not ready for input (busy, starting)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the outcome as JSON")
	return cmd
}
