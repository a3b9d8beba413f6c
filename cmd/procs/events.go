package main

import (
	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
)

func (a *app) eventsCommand() *cobra.Command {
	var (
		lines    bool
		after    int64
		snapshot bool
		jsonOut  *jsonOutput
	)
	cmd := &cobra.Command{
		Use:   "events [NAME...]",
		Short: "Follow state changes (and with --lines, output) of the running procs as JSON lines",
		Long: `Print every event of the running procs as one JSON object per line, until
procs stops or Ctrl-C. It starts with the present state of each process: a
state event marked "snapshot": true, with no "from" and seq 0. --after SEQ
first replays the kept state events that followed event SEQ, so a reader
can resume where it stopped; it leaves out the snapshot unless --snapshot
is given too.`,
		RunE: func(cmd *cobra.Command, names []string) error {
			if !cmd.Flags().Changed("snapshot") && after >= 0 {
				// A reader resuming knows the states up to SEQ already.
				snapshot = false
			}
			sess, err := a.connect()
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			opts := control.EventsOptions{Lines: lines, Procs: names, After: after, Snapshot: snapshot}
			err = c.Events(ctx, opts, func(ev compose.Event) error { return jsonOut.print(ev) })
			return a.clientError(err)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&lines, "lines", false, "include output lines")
	f.Int64Var(&after, "after", -1, "replay kept state events after this sequence number first")
	f.BoolVar(&snapshot, "snapshot", true, "start with the present state of each process (--snapshot=false: changes only)")
	// Events are JSON lines with or without --json, which is accepted so
	// that every command takes it.
	jsonOut = a.addJSONFlag(cmd, jsonLines, "print JSON lines (always on)")
	return cmd
}
