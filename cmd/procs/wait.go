package main

import (
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

func (a *app) waitCommand() *cobra.Command {
	var (
		states  []string
		timeout time.Duration
		jsonOut *jsonOutput
	)
	cmd := &cobra.Command{
		Use:   "wait NAME...",
		Short: "Wait until NAME... reach a state (default ready; completed for a task); exit 1 if one fails or times out",
		Args:  needsNames("procs wait NAME... [--for ready|completed|stopped|failed] [--timeout 60s]"),
		RunE: func(cmd *cobra.Command, names []string) error {
			var targets []rules.State
			for _, s := range states {
				for _, part := range strings.Split(s, ",") {
					targets = append(targets, rules.State(strings.TrimSpace(part)))
				}
			}
			return a.waitFor(names, control.WaitOptions{For: targets, Timeout: timeout}, jsonOut)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&states, "for", nil, "state(s) to wait for: ready, completed, stopped, failed; for an agent, shell or REPL also busy, awaiting-input, awaiting-permission (default ready, or completed for a task)")
	f.DurationVar(&timeout, "timeout", 60*time.Second, "give up after this long")
	jsonOut = a.addJSONFlag(cmd, jsonLines, "print each result as a line of JSON")
	return cmd
}

func (a *app) waitFor(names []string, opts control.WaitOptions, jsonOut *jsonOutput) error {
	sess, err := a.connectFor(opts.Timeout)
	if err != nil {
		return err
	}
	defer sess.close()
	// One request for every name: a connection per name met procs'
	// connection cap with a few hundred names.
	names = resolveInstances(sess.ctx, sess.client, names)
	results, errs := sess.client.WaitMany(sess.ctx, names, opts)
	return a.reportResults(results, errs, jsonOut)
}
