package main

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
)

func (a *app) sendCommand() *cobra.Command {
	var enter, force bool
	var jsonOut *jsonOutput
	var keys []string
	cmd := &cobra.Command{
		Use:   "send NAME [TEXT] [--key KEY]...",
		Short: "Write TEXT to the input (or terminal) of a running process",
		Long: `Write TEXT to the input (or terminal) of a running process.

An interactive process (an agent CLI, a shell, a REPL) that is not ready for
input (busy, starting) refuses it, naming its state, and send exits 1;
--force sends anyway. Keys (--key ctrl-c, esc, up, ...; or control characters
in TEXT) are always accepted: they stop or steer a busy program. With --enter,
an interactive process counts as busy until it answers, so
'procs wait NAME --for ready' right after waits for the answer; the Enter is
written on its own once the text is echoed, so agent CLIs do not take it for
a paste.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := sendText(args, keys)
			if err != nil {
				return withCode(exitUsage, err)
			}
			sess, err := a.connect()
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			err = c.Send(ctx, args[0], control.InputRequest{Text: text, Keys: keys, Enter: enter, Force: force})
			var apiErr *control.APIError
			if jsonOut.on() && errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict && apiErr.State != "" {
				_ = jsonOut.print(map[string]any{"name": args[0], "sent": false, "state": apiErr.State, "error": apiErr.Message})
				return silentExit(exitFailure)
			}
			if err != nil {
				return a.clientError(err)
			}
			if jsonOut.on() {
				return jsonOut.print(map[string]any{"name": args[0], "sent": true})
			}
			fmt.Fprintf(a.stdout, "sent to %s\n", args[0])
			return nil
		},
	}
	cmd.Flags().BoolVar(&enter, "enter", false, "press Enter after the text")
	cmd.Flags().BoolVar(&force, "force", false, "send even if the process is not ready for input (busy, starting)")
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the outcome as JSON")
	cmd.Flags().StringArrayVar(&keys, "key", nil, "a key to send after TEXT, by name: "+strings.Join(compose.KeyNames(), ", ")+", ctrl-a..ctrl-z (repeatable)")
	return cmd
}

// sendText is TEXT, checking the named keys to press after it: procs
// writes them as the process reads them (a terminal's sequence, or on a
// pipe a newline for Enter).
func sendText(args, keys []string) (string, error) {
	for _, name := range keys {
		if _, err := compose.KeySequence(name); err != nil {
			return "", err
		}
	}
	if len(keys) == 0 && len(args) < 2 {
		return "", errors.New("nothing to send: give TEXT or --key")
	}
	if len(args) > 1 {
		return args[1], nil
	}
	return "", nil
}
