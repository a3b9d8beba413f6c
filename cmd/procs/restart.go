package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// actionOptions are the flags shared by restart, start and stop.
type actionOptions struct {
	noWait  bool
	timeout time.Duration
	jsonOut *jsonOutput
}

// requestSlack is how much longer than the wait itself a request may take.
const requestSlack = 5 * time.Second

func (a *app) restartCommand() *cobra.Command {
	var opts actionOptions
	var noDeps bool
	cmd := &cobra.Command{
		Use:   "restart [NAME...]",
		Short: "Restart NAME... (names or globs; every process when none) in dependency order and wait until each is ready again",
		Long: `Restart the processes named (or matching a glob such as 'worker-*'; every
process when none is named) in dependency order, and wait until each new run
is ready, together with the dependents that declare restart: true, which
follow (--no-deps leaves them running). A process whose definition was edited
in procs.yaml restarts with the new definition, and procs says so.
Exits 1 if one of them is not ready again.`,
		RunE: func(cmd *cobra.Command, names []string) error {
			return a.restartMany(names, noDeps, opts)
		},
	}
	cmd.Flags().BoolVar(&noDeps, "no-deps", false, "do not restart the dependents that declare restart: true")
	opts.addFlags(a, cmd)
	return cmd
}

// addFlags gives an action command its --no-wait, --timeout and --json.
func (opts *actionOptions) addFlags(a *app, cmd *cobra.Command) {
	f := cmd.Flags()
	f.BoolVar(&opts.noWait, "no-wait", false, "return as soon as the request is accepted")
	f.DurationVar(&opts.timeout, "timeout", 60*time.Second, "give up waiting after this long")
	opts.jsonOut = a.addJSONFlag(cmd, jsonLines, "print each result as a line of JSON")
}

// restartMany restarts names (or everything) and prints a result per
// process restarted, the dependents that followed included.
func (a *app) restartMany(names []string, noDeps bool, opts actionOptions) error {
	sess, err := a.connectFor(opts.timeout)
	if err != nil {
		return err
	}
	defer sess.close()
	c, ctx := sess.client, sess.ctx
	answer, err := c.RestartMany(ctx, control.RestartRequest{Names: names, NoDeps: noDeps, NoWait: opts.noWait, Timeout: opts.timeout.String()})
	if err != nil {
		return a.clientError(err)
	}
	for _, note := range answer.Notes {
		fmt.Fprintf(a.stderr, "procs: %s\n", note)
	}
	return a.reportResults(answer.Results, make([]error, len(answer.Results)), opts.jsonOut)
}

// actionFunc sends one lifecycle request.
type actionFunc func(c *control.Client, ctx context.Context, name string, opts control.ActionOptions) (rules.Result, error)

// actionCommand builds restart, start or stop: the requests go out in
// parallel, results print in argument order, and the command exits 0 only
// if every one succeeded.
func (a *app) actionCommand(verb, short string, do actionFunc) *cobra.Command {
	var opts actionOptions
	cmd := &cobra.Command{
		Use:   verb + " NAME...",
		Short: short,
		Args:  needsNames("procs " + verb + " NAME... (procs up starts them all)"),
		RunE: func(cmd *cobra.Command, names []string) error {
			return a.runActions(names, opts, do)
		},
	}
	opts.addFlags(a, cmd)
	return cmd
}

func (a *app) runActions(names []string, opts actionOptions, do actionFunc) error {
	sess, err := a.connectFor(opts.timeout)
	if err != nil {
		return err
	}
	defer sess.close()
	c, ctx := sess.client, sess.ctx
	names = resolveInstances(ctx, c, names)

	results := make([]rules.Result, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			results[i], errs[i] = do(c, ctx, name, control.ActionOptions{NoWait: opts.noWait, Timeout: opts.timeout})
		})
	}
	wg.Wait()
	return a.reportResults(results, errs, opts.jsonOut)
}

// reportResults prints results in order and picks the exit code: the first
// request error wins, else 1 if any result failed.
func (a *app) reportResults(results []rules.Result, errs []error, jsonOut *jsonOutput) error {
	failed := false
	for i, res := range results {
		if errs[i] != nil {
			return a.clientError(errs[i])
		}
		if res.Logs == nil {
			res.Logs = []string{}
		}
		if jsonOut.on() {
			if err := jsonOut.print(res); err != nil {
				return err
			}
		} else {
			a.printResult(res)
		}
		failed = failed || !res.Success
	}
	if failed {
		return silentExit(exitFailure)
	}
	return nil
}
