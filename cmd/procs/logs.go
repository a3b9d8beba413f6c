package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
)

func (a *app) logsCommand() *cobra.Command {
	var (
		lines   int
		follow  bool
		since   string
		jsonOut *jsonOutput
	)
	cmd := &cobra.Command{
		Use:   "logs [NAME...]",
		Short: "Print recent output of NAME... (all processes when none), and follow it with -f",
		RunE: func(cmd *cobra.Command, names []string) error {
			sess, err := a.connect()
			if errors.Is(err, errNoProcs) && !follow {
				return a.offlineLogs(names, lines, jsonOut)
			}
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			prefix := len(names) != 1
			opts := control.LogsOptions{Procs: names, Tail: &lines, Since: since, Follow: follow}
			err = c.Logs(ctx, opts, func(l control.LogLine) error {
				if jsonOut.on() {
					return jsonOut.print(l)
				}
				if prefix {
					_, err := fmt.Fprintf(a.stdout, "%s | %s\n", l.Proc, l.Line)
					return err
				}
				_, err := fmt.Fprintln(a.stdout, l.Line)
				return err
			})
			return a.clientError(err)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&lines, "lines", "n", 100, "how many recent lines of each process to print first (-1: all kept lines); read from .procs/logs/ when no procs runs")
	f.BoolVarP(&follow, "follow", "f", false, "keep printing new lines until procs stops or Ctrl-C")
	// -f means --follow here, as in tail and docker compose; defining
	// --file locally keeps the global -f shorthand from colliding with it.
	f.StringVar(&a.file, "file", "", "config file (the global -f is --follow for logs)")
	f.StringVar(&since, "since", "", "only lines after this time (RFC 3339) or this long ago (e.g. 5m)")
	jsonOut = a.addJSONFlag(cmd, jsonLines, "print each line as JSON {proc, time, stream, line}")
	return cmd
}
