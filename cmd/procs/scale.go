package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
)

func (a *app) scaleCommand() *cobra.Command {
	var opts reloadOptions
	var noWait bool
	cmd := &cobra.Command{
		Use:   "scale NAME=N...",
		Short: "Run N instances of NAME on the running procs (NAME-1 to NAME-N), starting or stopping instances, and wait until the new ones are ready",
		Long: `Run N instances of each process named, NAME-1 to NAME-N, on the running
procs, as an edit of replicas: in procs.yaml would: new instances start
(and procs waits until they are ready), the highest-numbered ones stop when
N is lower, and the instances kept, like the processes that depend on NAME,
go on untouched. The count holds until procs stops, over reloads of
procs.yaml (as docker compose up --scale does); procs up --scale NAME=N
starts procs with it. A process without replicas: becomes NAME-1 to NAME-N.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			scale, err := parseScale(args)
			if err != nil {
				return withCode(exitUsage, err)
			}
			sess, err := a.connectFor(opts.timeout)
			if err != nil {
				return err
			}
			defer sess.close()
			answer, err := sess.client.Scale(sess.ctx, control.ScaleRequest{Scale: scale, Wait: !noWait, Timeout: opts.timeout.String()})
			if err != nil {
				return a.reconcileError(err)
			}
			return a.reportReconciled(answer, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&noWait, "no-wait", false, "return as soon as the instances are started or stopped")
	f.DurationVar(&opts.timeout, "timeout", 60*time.Second, "give up waiting after this long")
	opts.jsonOut = a.addJSONFlag(cmd, jsonOnce, "print what it did and the results as JSON")
	return cmd
}

// parseScale reads NAME=N arguments (procs scale, procs up --scale).
func parseScale(args []string) (map[string]int, error) {
	scale := map[string]int{}
	for _, arg := range args {
		name, count, ok := strings.Cut(arg, "=")
		n, err := strconv.Atoi(strings.TrimSpace(count))
		switch {
		case !ok || name == "":
			return nil, fmt.Errorf("%q is not NAME=N: write e.g. worker=3", arg)
		case err != nil:
			return nil, fmt.Errorf("%q: %q is not a number of instances: write e.g. %s=3", arg, count, name)
		case n < 1:
			return nil, fmt.Errorf("%q: a process runs 1 instance or more; procs stop %s stops it", arg, name)
		case n > config.MaxReplicas:
			return nil, fmt.Errorf("%q: a process runs at most %d instances", arg, config.MaxReplicas)
		}
		scale[name] = n
	}
	return scale, nil
}
