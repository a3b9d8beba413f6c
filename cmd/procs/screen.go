package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) screenCommand() *cobra.Command {
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "screen NAME",
		Short: "Print what a PTY process shows on its screen now (a TUI's log is a jumble of redraws)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sess, err := a.connect()
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			st, err := c.Screen(ctx, args[0])
			if err != nil {
				return a.terminalRefused(ctx, c, args[0], err, "it has no screen",
					fmt.Sprintf("`procs logs %s` shows its output", args[0]))
			}
			if jsonOut.on() {
				return jsonOut.print(st)
			}
			fmt.Fprintln(a.stdout, st.Text)
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the screen as JSON")
	return cmd
}
