package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// errTaskEnded ends the event stream of `procs run` once the task is over.
var errTaskEnded = errors.New("task ended")

func (a *app) runCommand() *cobra.Command {
	var detach bool
	var timeout time.Duration
	var argFlags []string
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "run TASK [--arg NAME=VALUE]...",
		Short: "Run a task of the running procs (its dependencies first), print its output and exit with its exit code",
		Long: `Run a task of the running procs (its dependencies first), print its output
and exit with its exit code. A run that fails and that its restart policy
(restart: on-failure) brings back is followed into the next run, until
one completes or the policy gives up: the last run's exit is the answer.
Ctrl-C (or SIGTERM) stops the run it started (or its backoff), says so,
and exits 130 (143); procs and the other processes go on.

--timeout gives up following the task after that long, as procs start and
procs wait give up: it prints what the task is doing and its last lines
and exits 1, and leaves the task as it is (procs stop NAME stops it).
Without --timeout, procs run follows the task until it ends.

--arg NAME=VALUE gives the task's run one of its args: (repeat it for
each): the command gets it as $NAME upper-cased and where it writes
{{args.NAME}}, quoted, so no value runs as shell code. A value of the
wrong type, an unknown argument or a missing required one is refused
(exit 2) before anything starts. Without --arg, a run already going is
followed; with --arg, procs refuses to join it (exit 1).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			taskArgs, err := parseArgFlags(argFlags)
			if err != nil {
				return withCode(exitUsage, err)
			}
			sess, err := a.connect()
			if err != nil {
				return err
			}
			defer sess.close()
			c, ctx := sess.client, sess.ctx
			st, err := c.Get(ctx, args[0])
			if err != nil {
				if instances := resolveInstances(ctx, c, args[:1]); instances[0] != args[0] {
					return withCode(exitUsage, fmt.Errorf("%s runs as %d instances (%s): procs run follows one (`procs run %s`); `procs restart %s` runs them all again",
						args[0], len(instances), strings.Join(instances, ", "), instances[0], args[0]))
				}
				return a.clientError(err)
			}
			if st.Kind != config.KindTask {
				return withCode(exitUsage, fmt.Errorf("%s is a service, not a task; use `procs start %s` or `procs restart %s`", st.Name, st.Name, st.Name))
			}
			if detach {
				res, err := c.Start(ctx, st.Name, control.ActionOptions{NoWait: true, Args: taskArgs})
				return a.reportResults([]rules.Result{res}, []error{err}, jsonOut)
			}
			// A run already going is followed, not taken over: Ctrl-C
			// leaves it to whoever started it. A run with arguments
			// never joins one (procs refuses it, saying which runs).
			joined := taskArgs == nil && st.State != rules.StatePending && st.State != rules.StateBackoff && !st.State.Terminal()
			if joined {
				fmt.Fprintf(a.stderr, "%s is already running (run %d): following it; Ctrl-C leaves it running\n", st.Name, st.Run)
			}
			return a.runTask(ctx, c, st.Name, taskArgs, joined, timeout, jsonOut)
		},
	}
	cmd.Flags().BoolVarP(&detach, "detach", "d", false, "start the task and return at once")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "give up following the task after this long (exit 1; the task goes on); no limit when not given")
	cmd.Flags().StringArrayVar(&argFlags, "arg", nil, "give the task's run an argument of its args: (repeatable), e.g. --arg filter=TestLogin")
	jsonOut = a.addJSONFlag(cmd, jsonLines, "print output lines and the final state as JSON events")
	return cmd
}

// runTask starts the task once its event stream is open, prints its lines,
// and exits with the task's exit code when it ends. Ctrl-C or SIGTERM
// stops the run it started (as `docker compose run` does) and exits 130
// or 143 saying so; a run it joined (joined: already running) goes on.
// A timeout (0: none) ends the following, not the task.
func (a *app) runTask(ctx context.Context, c *control.Client, name string, taskArgs map[string]string, joined bool, timeout time.Duration, jsonOut *jsonOutput) error {
	follow, stopFollowing := followFor(ctx, timeout)
	defer stopFollowing()
	began := time.Now()
	run, sent := 0, false
	var final *compose.Event
	start := func() error {
		sent = true
		res, err := c.Start(follow, name, control.ActionOptions{NoWait: true, Args: taskArgs})
		run = res.Run
		return err
	}
	err := c.Events(follow, control.EventsOptions{Lines: true, Procs: []string{name}, After: -1, OnOpen: start},
		func(ev compose.Event) error {
			if ev.Run < run && ev.To != rules.StateBlocked {
				return nil // output of an earlier run
			}
			if ev.Type == compose.EventLine {
				if jsonOut.on() {
					return jsonOut.print(ev)
				}
				_, err := fmt.Fprintln(a.stdout, ev.Line)
				return err
			}
			if ev.Type != compose.EventState {
				return nil
			}
			// A run its restart policy brings back is followed, and
			// Ctrl-C then stops that one.
			run = max(run, ev.Run)
			switch {
			case ev.To == rules.StateBackoff:
				// The next run, not this one, says how the task ends.
				if !jsonOut.on() {
					fmt.Fprintf(a.stderr, "%s backoff (run %d): %s\n", ev.Proc, ev.Run, ev.Message)
				}
			case ev.To == rules.StateFailed && policyRetries(ctx, c, ev):
				// Its backoff comes next, in the same step of procs.
			case taskOver(ev.To):
				final = &ev
				return errTaskEnded
			}
			return nil
		})
	if final == nil && interruption(ctx) != nil {
		if joined {
			return interruptedWhile(ctx, "%s (run %d) was running before this command: left running", name, run)
		}
		return a.stopInterruptedTask(ctx, c, name, run, sent)
	}
	if final == nil && ctx.Err() == nil && errors.Is(follow.Err(), context.DeadlineExceeded) {
		return a.runTimedOut(ctx, c, name, time.Since(began), jsonOut)
	}
	if err != nil && !errors.Is(err, errTaskEnded) {
		return a.clientError(err)
	}
	if final == nil {
		return withCode(exitFailure, fmt.Errorf("procs stopped before %s ended", name))
	}
	return a.taskExit(ctx, c, *final, jsonOut)
}

// taskStopTimeout bounds stopping an interrupted task; a second Ctrl-C
// ends the wait sooner (procs goes on stopping it).
const taskStopTimeout = 30 * time.Second

// stopInterruptedTask stops the run of the task this command started, when
// it is still that run, and says what it did.
func (a *app) stopInterruptedTask(interrupted context.Context, c *control.Client, name string, run int, sent bool) error {
	if !sent {
		return interruptedWhile(interrupted, "%s was not started", name)
	}
	ctx, stop := signalContext()
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, taskStopTimeout)
	defer cancel()
	st, err := c.Get(ctx, name)
	switch {
	case err != nil:
		return interruptedWhile(interrupted, "could not stop %s: %v", name, err)
	case run == 0:
		run = st.Run
	}
	// A run waiting for its dependencies has not begun: the task still
	// shows the run before it, and stopping it cancels this one.
	if st.Run > run || taskOver(st.State) {
		return interruptedWhile(interrupted, "%s (run %d) had already ended", name, run)
	}
	res, err := c.Stop(ctx, name, control.ActionOptions{Timeout: taskStopTimeout})
	switch {
	case interruption(ctx) != nil:
		return interruptedWhile(interrupted, "stopping %s (run %d); procs goes on stopping it", name, run)
	case err != nil:
		return interruptedWhile(interrupted, "could not stop %s (run %d): %v", name, run, err)
	case !res.Success:
		return interruptedWhile(interrupted, "%s (run %d) is %s: %s", name, run, res.State, res.Message)
	}
	return interruptedWhile(interrupted, "stopped %s (run %d)", name, run)
}

// taskOver reports whether a run of a task has ended in state s, and
// nothing will run it again unasked. A task in backoff has not ended: its
// restart policy runs it again.
func taskOver(s rules.State) bool {
	switch s {
	case rules.StateCompleted, rules.StateFailed, rules.StateStopped, rules.StateBlocked:
		return true
	}
	return false
}

// policyRetries reports whether the restart policy of a task runs it again
// after its run failed as ev says. procs moves a run it retries from
// failed to backoff at once, so by the time the failure is read the task
// is in backoff, or already runs again. A task procs cannot be asked about
// is taken as not retried: the failure is the answer.
func policyRetries(ctx context.Context, c *control.Client, ev compose.Event) bool {
	st, err := c.Get(ctx, ev.Proc)
	if err != nil {
		return false
	}
	return st.Run > ev.Run || st.State == rules.StateBackoff || st.State == rules.StatePending
}

// taskExit turns how the task ended into the exit code of `procs run`.
func (a *app) taskExit(ctx context.Context, c *control.Client, final compose.Event, jsonOut *jsonOutput) error {
	if jsonOut.on() {
		if err := jsonOut.print(final); err != nil {
			return err
		}
	}
	if final.To == rules.StateCompleted {
		return nil
	}
	code := exitFailure
	statusCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if st, err := c.Get(statusCtx, final.Proc); err == nil && st.ExitCode != nil && *st.ExitCode > 0 {
		code = *st.ExitCode
	}
	if !jsonOut.on() {
		msg := final.Message
		if msg == "" {
			msg = string(final.Reason)
		}
		if final.To == rules.StateBlocked {
			msg += blockedHint(statusCtx, c, final.Proc)
		}
		fmt.Fprintf(a.stderr, "procs: %s %s: %s\n", final.Proc, final.To, msg)
	}
	return silentExit(code)
}
