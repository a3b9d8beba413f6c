package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// reloadOptions are the flags of `procs reload` (and of `procs up` when
// procs already runs).
type reloadOptions struct {
	// scale is the number of instances procs up --scale asks for.
	scale map[string]int
	// profiles are the profiles procs up --profile makes active.
	profiles []string
	wait     bool
	timeout  time.Duration
	jsonOut  *jsonOutput
	// alsoStarting are the stopped processes procs up starts after the
	// reload (upRunning): its report names them among those started.
	alsoStarting []string
	// alsoWaiting are processes on their way before the reload (procs up
	// --wait, upRunning): waited for too, when the reload did not.
	alsoWaiting []string
}

func (a *app) reloadCommand() *cobra.Command {
	var opts reloadOptions
	cmd := &cobra.Command{
		Use:   "reload",
		Short: "Apply edits of procs.yaml to the running procs: restart what changed, start what is new, stop what is gone",
		Long: `Check procs.yaml and apply it to the procs running in this folder, as
procs up does when procs already runs: processes whose definition changed,
or whose environment changed because an env file (.env, envFile:) was
edited, restart (and the dependents that declare restart: true), new ones start in
dependency order, removed ones stop; the rest keep running. A config error
changes nothing. With --wait, waits until what changed is ready.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			return a.reconcile(cfg, nil, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.wait, "wait", false, "wait until what changed is ready (exit 1 if one fails)")
	f.DurationVar(&opts.timeout, "timeout", 5*time.Minute, "with --wait: give up after this long")
	opts.jsonOut = a.addJSONFlag(cmd, jsonOnce, "print what was done (and the results) as JSON")
	return cmd
}

// reconcile asks the procs running for cfg's folder to apply the config on
// disk, and prints what it did. The config was checked by the caller, so
// its errors are already printed with their file:line:col.
func (a *app) reconcile(cfg *config.Config, only []string, opts reloadOptions) error {
	c, err := control.Dial(cfg.Dir)
	if err != nil {
		return a.clientError(err)
	}
	defer c.Close()
	ctx, cancel := signalContext()
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, opts.timeout+requestSlack)
	defer cancelTimeout()
	answer, err := c.Reload(ctx, control.ReloadRequest{Only: only, Scale: opts.scale, Profiles: opts.profiles, Wait: opts.wait, Timeout: opts.timeout.String()})
	if err != nil {
		return a.reconcileError(err)
	}
	if opts.wait {
		answer.Results = append(answer.Results, waitAlso(ctx, c, opts, answer.Results)...)
	}
	// The running procs may follow another file than the one this command
	// read (started with -f Procfile, then up -f procs.yaml): say how to
	// switch rather than that nothing changed.
	if info, err := c.Info(ctx); err == nil && info.File != "" && info.File != cfg.File {
		if !answer.Diff.Empty() {
			a.printReconciled(answer, nil)
		}
		fmt.Fprintf(a.stderr, "procs: the procs of this folder runs from %s, not %s (it was started with -f or PROCS_FILE): run `procs down && procs up -f %s` to switch\n",
			filepath.Base(info.File), filepath.Base(cfg.File), relPath(cfg.File))
		return silentExit(exitUsage)
	}
	return a.reportReconciled(answer, opts)
}

// waitAlso waits for the processes of opts.alsoWaiting that the reload's
// own wait did not cover (results), and returns their results: procs up
// --wait on a procs still starting answers once they are ready too, as
// docker compose up --wait does, not "nothing changed" while they start.
func waitAlso(ctx context.Context, c *control.Client, opts reloadOptions, results []rules.Result) []rules.Result {
	var names []string
	for _, name := range opts.alsoWaiting {
		if !slices.ContainsFunc(results, func(r rules.Result) bool { return r.Name == name }) {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	waited, errs := c.WaitMany(ctx, names, control.WaitOptions{Timeout: opts.timeout})
	var out []rules.Result
	for i, res := range waited {
		if errs[i] == nil {
			out = append(out, res)
		}
	}
	return out
}

// reconcileError is how a reload or scale the running procs refused ends:
// a config error (or a count that cannot run) is printed as it is, and
// exits 2.
func (a *app) reconcileError(err error) error {
	var apiErr *control.APIError
	if errors.As(err, &apiErr) && apiErr.Status == 422 {
		fmt.Fprintln(a.stderr, apiErr.Message)
		return saidOnStderr(exitUsage, errors.New(apiErr.Message))
	}
	return a.clientError(err)
}

// reportReconciled prints what a reload or scale did and exits 1 if what
// it waited for did not come up.
func (a *app) reportReconciled(answer control.ReloadAnswer, opts reloadOptions) error {
	if opts.jsonOut.on() {
		if err := opts.jsonOut.print(answer); err != nil {
			return err
		}
	} else {
		a.printReconciled(answer, opts.alsoStarting)
	}
	for _, res := range answer.Results {
		if !res.Success {
			return silentExit(exitFailure)
		}
	}
	return nil
}

// splitStopping tells the removed processes whose stop is over from those
// still stopping: a removed process still running has a wait for its end
// among the reload's waits, which has no result unless the reload waited.
func splitStopping(answer control.ReloadAnswer) (stopped, stopping []string) {
	for _, name := range answer.Stopped {
		ending := slices.ContainsFunc(answer.Waits, func(t wire.WaitTarget) bool { return t.Name == name })
		waited := slices.ContainsFunc(answer.Results, func(r rules.Result) bool { return r.Name == name })
		if ending && !waited {
			stopping = append(stopping, name)
		} else {
			stopped = append(stopped, name)
		}
	}
	return stopped, stopping
}

// heldUnwaited are the processes the reload started that had not begun
// to run when it answered, and whose end the reload did not wait for (a
// result says what became of those).
func heldUnwaited(answer control.ReloadAnswer) []wire.HeldProcess {
	return slices.DeleteFunc(slices.Clone(answer.Held), func(h wire.HeldProcess) bool {
		return slices.ContainsFunc(answer.Results, func(r rules.Result) bool { return r.Name == h.Name })
	})
}

// printReconciled says what a reload did, one line per kind of change,
// then the result of each wait; alsoStarting are stopped processes procs
// up starts next, said among those started.
func (a *app) printReconciled(answer control.ReloadAnswer, alsoStarting []string) {
	stopped, stopping := splitStopping(answer)
	held := heldUnwaited(answer)
	started := slices.DeleteFunc(append(slices.Clone(answer.Started), alsoStarting...), func(name string) bool {
		return slices.ContainsFunc(held, func(h wire.HeldProcess) bool { return h.Name == name })
	})
	lines := []struct {
		what  string
		names []string
	}{
		{"restarted", answer.Restarted},
		{"started", started},
		{"stopped", stopped},
		{"stopping", stopping},
		{"updated, not running", answer.Updated},
		{"schedule changed", answer.Diff.Rescheduled},
		{"scheduled", answer.Scheduled},
	}
	said := false
	if len(answer.Diff.EnvChanged) > 0 {
		fmt.Fprintf(a.stdout, "environment changed (env file edited): %s\n", strings.Join(answer.Diff.EnvChanged, ", "))
	}
	for _, l := range lines {
		if len(l.names) > 0 {
			fmt.Fprintf(a.stdout, "%s: %s\n", l.what, strings.Join(l.names, ", "))
			said = true
		}
	}
	// Asked to start, not running yet: what each waits for.
	for _, h := range held {
		fmt.Fprintf(a.stdout, "%s: %s (%s)\n", h.State, h.Name, h.Message)
		said = true
	}
	if !said {
		fmt.Fprintln(a.stdout, "nothing changed: every process runs its current definition")
	}
	for _, res := range answer.Results {
		a.printResult(res)
	}
}
