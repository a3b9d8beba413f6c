package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// followFor is the context procs run follows its task in: ctx, ended
// after timeout too when there is one (timeout > 0).
func followFor(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, timeout)
}

// runLogLines is how many of a task's recent lines runTimedOut reads to
// find the last ones of its run.
const runLogLines = 200

// lastLinesOfRun are the last lines of run of name (rules.ResultLogLines,
// blank ones left out), as a result quotes them; none when procs cannot
// say.
func lastLinesOfRun(ctx context.Context, c *control.Client, name string, run int) []string {
	tail := runLogLines
	var lines []string
	err := c.Logs(ctx, control.LogsOptions{Procs: []string{name}, Tail: &tail}, func(l control.LogLine) error {
		if l.Run == run && l.Stream != "procs" && strings.TrimSpace(l.Line) != "" {
			lines = append(lines, l.Line)
		}
		return nil
	})
	if err != nil || run == 0 {
		return []string{}
	}
	return append([]string{}, lines[max(0, len(lines)-rules.ResultLogLines):]...)
}

// runTimedOut ends procs run whose --timeout ran out before the task
// ended: as procs start and wait do when theirs runs out, it prints the
// result (the task's state now, what it is doing, the last lines of its
// run) and exits 1. The task is left as it is, as they leave it; this
// command only stops following it.
func (a *app) runTimedOut(ctx context.Context, c *control.Client, name string, waited time.Duration, jsonOut *jsonOutput) error {
	statusCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st, err := c.Get(statusCtx, name)
	if err != nil {
		return a.clientError(err)
	}
	now := st.Message
	if now == "" {
		now = string(st.State)
	}
	res := rules.Result{
		Name: name, State: st.State, Run: st.Run, DurationMs: waited.Milliseconds(),
		Message: fmt.Sprintf("timed out after %s waiting for %s; %s", waited.Round(time.Millisecond), rules.StateCompleted, now),
		Ports:   st.Ports, Logs: lastLinesOfRun(statusCtx, c, name, st.Run),
	}
	if res.Ports == nil {
		res.Ports = []int{}
	}
	if jsonOut.on() {
		if err := jsonOut.print(res); err != nil {
			return err
		}
		return silentExit(exitFailure)
	}
	a.printResult(res)
	fmt.Fprintf(a.stderr, "procs: %s goes on: `procs stop %s` stops it\n", name, name)
	return silentExit(exitFailure)
}
