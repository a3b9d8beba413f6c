package main

import (
	"slices"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

func (a *app) stopCommand() *cobra.Command {
	var opts actionOptions
	cmd := &cobra.Command{
		Use:   "stop [NAME...]",
		Short: "Stop NAME... (names or globs; every process when none), dependents first, and wait until each has stopped",
		Long: `Stop the processes named (or matching a glob such as 'worker-*'; every
process when none is named), each one's dependents among them before it, as
procs down does, and wait until each has stopped. Their restart policy does
not bring them back; procs keeps running, so procs start or restart brings
them back, and procs down ends it. Results print in the order they stopped.`,
		RunE: func(cmd *cobra.Command, patterns []string) error {
			return a.stopMany(patterns, opts)
		},
	}
	opts.addFlags(a, cmd)
	return cmd
}

// stopMany stops the processes matching patterns (all when none) in waves:
// each wave the processes no other one left to stop depends on, so no
// process loses a dependency while it runs. --timeout bounds the whole.
func (a *app) stopMany(patterns []string, opts actionOptions) error {
	sess, err := a.connectFor(opts.timeout)
	if err != nil {
		return err
	}
	defer sess.close()
	c, ctx := sess.client, sess.ctx
	list, err := c.List(ctx)
	if err != nil {
		return a.clientError(err)
	}
	names, err := matchStatuses(list, patterns)
	if err != nil {
		return withCode(exitUsage, err)
	}
	deadline := time.Now().Add(opts.timeout)
	var results []rules.Result
	var errs []error
	for _, wave := range stopWaves(list, names) {
		wopts := control.ActionOptions{NoWait: opts.noWait, Timeout: max(time.Until(deadline), time.Millisecond)}
		res, werrs := make([]rules.Result, len(wave)), make([]error, len(wave))
		var wg sync.WaitGroup
		for i, name := range wave {
			wg.Go(func() { res[i], werrs[i] = c.Stop(ctx, name, wopts) })
		}
		wg.Wait()
		results, errs = append(results, res...), append(errs, werrs...)
		if slices.ContainsFunc(werrs, func(e error) bool { return e != nil }) {
			break
		}
	}
	return a.reportResults(results, errs, opts.jsonOut)
}

// matchStatuses resolves names and globs to the processes of list, in its
// (start) order; none means every process. A pattern matching nothing is
// an unknown process, as restart says.
func matchStatuses(list []compose.ProcStatus, patterns []string) ([]string, error) {
	var all, names []string
	group := map[string]string{}
	for _, st := range list {
		all = append(all, st.Name)
		group[st.Name] = st.ReplicaOf
	}
	if len(patterns) == 0 {
		return all, nil
	}
	for _, pattern := range patterns {
		found := false
		for _, name := range all {
			if config.NameMatches(pattern, name, group[name]) {
				found = true
				names = append(names, name)
			}
		}
		if !found {
			return nil, &config.UnknownProcessError{Name: pattern, Known: all}
		}
	}
	slices.SortFunc(names, func(x, y string) int { return slices.Index(all, x) - slices.Index(all, y) })
	return slices.Compact(names), nil
}

// stopWaves orders names for stopping in waves: a wave holds the names
// that none of the names still running depends on, so dependents stop
// before what they depend on. Within a wave, names keep the reverse of
// list's start order.
func stopWaves(list []compose.ProcStatus, names []string) [][]string {
	dependsOn := map[string][]string{}
	for _, st := range list {
		dependsOn[st.Name] = st.DependsOn
	}
	left := slices.Clone(names)
	slices.Reverse(left)
	var waves [][]string
	for len(left) > 0 {
		var wave, rest []string
		for _, name := range left {
			if neededBy(name, left, dependsOn) {
				rest = append(rest, name)
			} else {
				wave = append(wave, name)
			}
		}
		if len(wave) == 0 { // a cycle, which config forbids: stop the rest together
			wave, rest = rest, nil
		}
		waves = append(waves, wave)
		left = rest
	}
	return waves
}

// neededBy reports whether another of names depends on name.
func neededBy(name string, names []string, dependsOn map[string][]string) bool {
	for _, other := range names {
		if other != name && slices.Contains(dependsOn[other], name) {
			return true
		}
	}
	return false
}
