package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
)

// logsFlags are the flags of `procs logs`.
type logsFlags struct {
	lines      int
	follow     bool
	since      string
	timestamps bool
	noPrefix   bool
	json       *jsonOutput
}

func (a *app) logsCommand() *cobra.Command {
	var fl logsFlags
	cmd := &cobra.Command{
		Use:   "logs [NAME...]",
		Short: "Print recent output of NAME... (all processes when none), and follow it with -f",
		Long: `Print recent output of NAME... (all processes when none), and follow it with -f.
Lines are "name | text", the names padded to the longest one shown; a line
"── run N ──" separates two runs of a process, and procs' own notes (lines
lost by a log file, lines dropped for a slow reader) are "procs | name: ...".
With --json each line is {proc, run, time, stream, line}: the run changes
where a new run begins, and stream "procs" marks procs' notes.`,
		RunE: func(cmd *cobra.Command, names []string) error {
			sess, err := a.connect()
			if errors.Is(err, errNoProcs) && !fl.follow {
				return a.offlineLogs(names, fl)
			}
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			names = resolveInstances(ctx, c, names)
			shown := names
			if len(shown) == 0 {
				// Every process: their names set the width of the prefix.
				list, err := c.List(ctx)
				if err != nil {
					return a.clientError(err)
				}
				for _, st := range list {
					shown = append(shown, st.Name)
				}
			}
			view := newLogView(a.stdout, shown, fl.prefixed(names), fl.timestamps, fl.json)
			view.learnAgents(ctx, c)
			opts := control.LogsOptions{Procs: names, Tail: &fl.lines, Since: fl.since, Follow: fl.follow}
			return a.clientError(c.Logs(ctx, opts, view.line))
		},
	}
	f := cmd.Flags()
	fl.lines = defaultLogLines
	f.VarP(linesFlag{&fl.lines}, "lines", "n", "how many recent lines of each process to print first (a number, or all; -1 is all too); read from .procs/logs/ when no procs runs")
	f.Var(linesFlag{&fl.lines}, "tail", "the same as --lines (docker compose's name)")
	f.BoolVarP(&fl.follow, "follow", "f", false, "keep printing new lines until procs stops or Ctrl-C")
	// -f means --follow here, as in tail and docker compose; defining
	// --file locally keeps the global -f shorthand from colliding with it.
	f.StringVar(&a.file, "file", "", "config file (the global -f is --follow for logs)")
	f.StringVar(&fl.since, "since", "", "only lines after this time (RFC 3339) or this long ago (e.g. 5m); needs a running procs: the log files keep no times")
	f.BoolVarP(&fl.timestamps, "timestamps", "t", false, "start each line with its time (RFC 3339, milliseconds); needs a running procs: the log files keep no times")
	f.BoolVar(&fl.noPrefix, "no-prefix", false, "print lines without the \"name | \" prefix")
	f.BoolVar(&fl.noPrefix, "no-log-prefix", false, "the same as --no-prefix (docker compose's name)")
	fl.json = a.addJSONFlag(cmd, jsonLines, "print each line as JSON {proc, run, time, stream, line}; -t and --no-prefix change nothing in it")
	return cmd
}

// prefixed reports whether lines carry their process's name: when more
// than one process may be shown, unless --no-prefix.
func (fl logsFlags) prefixed(names []string) bool { return !fl.noPrefix && len(names) != 1 }

// linesFlag is -n/--lines/--tail: a number of lines, or all (stored as -1,
// as the API takes it).
type linesFlag struct{ n *int }

// defaultLogLines is how many lines of each process logs prints first.
const defaultLogLines = 100

func (l linesFlag) String() string {
	switch {
	case l.n == nil:
		return strconv.Itoa(defaultLogLines)
	case *l.n < 0:
		return "all"
	}
	return strconv.Itoa(*l.n)
}

func (l linesFlag) Set(s string) error {
	if s == "all" {
		*l.n = -1
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not a number of lines: give a number, or all", s)
	}
	*l.n = max(n, -1)
	return nil
}

func (l linesFlag) Type() string { return "N" }
