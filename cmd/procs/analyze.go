package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) analyzeCommand() *cobra.Command {
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "analyze",
		Short: "Show the critical chain of the last start: what decided when everything was ready",
		Long: `Show the critical chain of the last start of the running procs: the process
that became ready (or completed) last, the dependency it waited for, the one
that dependency waited for, and so on, first started first. Each line gives
when the process started (from the start of the chain), how long it took to
become ready, and why it became ready:

  +0ms db ready in 748ms: matched /ready to accept connections/
  +752ms migrate completed in 95ms (waited for db)
  +850ms api ready in 209ms: matched /listening/ (waited for migrate)

It reads the status of the runs in progress: after a restart, the restarted
process and the processes that followed it are of a later start than the
others, and the chain ends at the one of them ready last. A run restarted
while its dependencies were up waited for none of them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			list, err := a.statuses(nil, false)
			if err != nil {
				return err
			}
			chain := criticalChain(list)
			if jsonOut.on() {
				return jsonOut.print(chain)
			}
			if len(chain.Links) == 0 {
				return withCode(exitFailure, errors.New("no process is ready or completed yet: wait for them (procs wait) and run procs analyze again"))
			}
			for _, line := range chain.lines() {
				fmt.Fprintln(a.stdout, line)
			}
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, `print {"firstStart", "chain": [{name, state, startedAt, doneAt, offsetMs, tookMs, reason, message, waitedFor}]}`)
	return cmd
}
