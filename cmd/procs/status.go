package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
)

func (a *app) statusCommand() *cobra.Command {
	var (
		jsonOut *jsonOutput
		output  string
	)
	cmd := &cobra.Command{
		Use:     "status [NAME...]",
		Aliases: []string{"ps"},
		Short:   "Show the state of every process (or NAME...) of the running procs",
		Long: `Show the state of every process of the running procs, in start order
(each after the processes it depends on), or of NAME... in the order given.

On a terminal each row stays narrower than the terminal: the LAST column (the
reason of the last change) gets what is left, and a narrow terminal leaves out
the least useful columns first (CPU and MEM, then RESTARTS, PID and PORTS,
UPTIME, RUN), as procs tui does. Every column is shown, LAST whole, with
-o wide, when NAME... are given, and when the output is not a terminal
(piped, redirected).`,
		RunE: func(cmd *cobra.Command, names []string) error {
			if output != "" && output != "wide" {
				return withCode(exitUsage, fmt.Errorf("-o %q is not an output format: use -o wide (or --json)", output))
			}
			list, err := a.statuses(names, true)
			if err != nil {
				return err
			}
			if jsonOut.on() {
				return jsonOut.print(list)
			}
			width := 0
			if output == "" && len(names) == 0 {
				width, _ = a.terminalSize()
			}
			a.printStatusTable(list, width)
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "wide: every column, and LAST never cut")
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the status as JSON")
	return cmd
}

// statuses asks the running procs for the status of names (every process
// when none), in the order of the answer or of names; withUsage measures
// what each uses too, which may take a quarter of a second.
func (a *app) statuses(names []string, withUsage bool) ([]compose.ProcStatus, error) {
	sess, err := a.connect()
	if err != nil {
		return nil, err
	}
	defer sess.close()
	c, ctx := sess.client, sess.ctx
	listAll, get := c.ListAll, c.Get
	if withUsage {
		listAll, get = c.ListUsage, c.GetUsage
	}
	if len(names) == 0 {
		list, err := listAll(ctx)
		return list, a.clientError(err)
	}
	names = resolveInstances(ctx, c, names)
	list := make([]compose.ProcStatus, 0, len(names))
	for _, name := range names {
		st, err := get(ctx, name)
		if err != nil {
			return nil, a.clientError(err)
		}
		list = append(list, st)
	}
	return list, nil
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

// lastWord is the reason and message of the last transition, whole, after
// a scheduled task's next run: printStatusTable cuts it to the terminal.
func lastWord(st compose.ProcStatus) string {
	text := st.Reason.With(st.Message)
	if next := scheduleWord(st, time.Now()); next != "" {
		// First, so a terminal's cut keeps it.
		text = strings.TrimSuffix(next+" · "+text, " · ")
	}
	if spent := st.Agent.SpentText(); spent != "" {
		text = strings.TrimPrefix(text+" · "+spent, " · ")
	}
	if text != "" {
		return text
	}
	return "-"
}
