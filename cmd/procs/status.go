package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
)

func (a *app) statusCommand() *cobra.Command {
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "status [NAME...]",
		Short: "Show the state of every process (or NAME...) of the running procs",
		RunE: func(cmd *cobra.Command, names []string) error {
			sess, err := a.connect()
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			var list []compose.ProcStatus
			if len(names) == 0 {
				list, err = c.List(ctx)
			} else {
				for _, name := range names {
					st, gerr := c.Get(ctx, name)
					err = gerr
					if err != nil {
						break
					}
					list = append(list, st)
				}
			}
			if err != nil {
				return a.clientError(err)
			}
			if jsonOut.on() {
				return jsonOut.print(list)
			}
			a.printStatusTable(list)
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the status as JSON")
	return cmd
}

// printStatusTable writes one row per process.
func (a *app) printStatusTable(list []compose.ProcStatus) {
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tRUN\tPID\tPORTS\tUPTIME\tRESTARTS\tLAST")
	for _, st := range list {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\n",
			st.Name, st.State, st.Run, dashIfZero(st.PID), formatPorts(st.Ports),
			formatUptime(st.UptimeMs), st.Restarts, lastWord(st))
	}
	tw.Flush()
}

func dashIfZero(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

func formatPorts(ports []int) string {
	if len(ports) == 0 {
		return "-"
	}
	parts := make([]string, len(ports))
	for i, p := range ports {
		parts[i] = strconv.Itoa(p)
	}
	return strings.Join(parts, ",")
}

func formatUptime(ms int64) string {
	if ms <= 0 {
		return "-"
	}
	d := time.Duration(ms) * time.Millisecond
	if d < time.Minute {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// lastWord is the reason and message of the last transition, kept short.
func lastWord(st compose.ProcStatus) string {
	text := st.Reason.With(st.Message)
	const maxLen = 70
	if r := []rune(text); len(r) > maxLen {
		text = string(r[:maxLen-1]) + "…"
	}
	if text == "" {
		return "-"
	}
	return text
}
