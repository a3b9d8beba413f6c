package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// settledAfterFailure completes a wait of `up -d --wait` that stopped at
// its first failure. The answers of a wait come as they are decided, and a
// failure decides its dependents' blocking at the same moment: a blocked
// dependent's answer often comes first, and stopping there left out the
// failed process itself, its reason and its last lines. So each process
// without an answer yet whose wait ends at once (see endsAtOnce) is asked
// for its result now; those still on their way are not waited for, as
// the first failure ends the wait. It returns those results, placed in
// start order, and procs' list as it was read (nil if it could not be).
func settledAfterFailure(ctx context.Context, c *control.Client, wait time.Duration, answered map[string]bool) ([]placedResult, []compose.ProcStatus) {
	list, err := c.List(ctx)
	if err != nil {
		return nil, nil // procs ended or went silent: the answers in are all there is
	}
	var names []string
	var places []int
	for place, st := range list {
		if !answered[st.Name] && endsAtOnce(st) {
			names = append(names, st.Name)
			places = append(places, place)
		}
	}
	if len(names) == 0 {
		return nil, list
	}
	results, errs := c.WaitMany(ctx, names, control.WaitOptions{Timeout: wait})
	var settled []placedResult
	for i, res := range results {
		// One that cannot be answered now (procs ending) stays among those
		// not waited for.
		if errs[i] == nil {
			settled = append(settled, placedResult{places[i], res})
		}
	}
	return settled, list
}

// endsAtOnce says whether a wait for the process answers at once: it is
// ready or completed, or it failed, was blocked or waits to be restarted,
// which only a restart changes. A failure the program recovers from by
// itself keeps a wait going, so it counts as on its way.
func endsAtOnce(st compose.ProcStatus) bool {
	switch st.State {
	case rules.StateReady, rules.StateCompleted, rules.StateBlocked, rules.StateBackoff:
		return true
	case rules.StateFailed:
		return !st.Recoverable
	}
	return false
}

// notWaitedFor is the result of a process the wait left on its way when
// another failed: up -d --wait --json prints a result per process.
func notWaitedFor(st compose.ProcStatus, why string) rules.Result {
	ports := st.Ports
	if ports == nil {
		ports = []int{}
	}
	return rules.Result{
		Name: st.Name, Success: false, State: st.State, Run: st.Run,
		Message: fmt.Sprintf("not ready yet (%s)", why), Ports: ports, Logs: []string{},
	}
}

// firstFailure says why the wait stopped, of results placed in start
// order (see stoppedBy).
func firstFailure(results []placedResult) string {
	results = slices.Clone(results)
	slices.SortFunc(results, func(x, y placedResult) int { return x.place - y.place })
	ordered := make([]rules.Result, len(results))
	for i, r := range results {
		ordered[i] = r.res
	}
	return stoppedBy(ordered)
}

// stoppedBy says why a wait that ended at its first unsuccessful result,
// of results in start order, left the others: "db failed"; or, when that
// result is of a process still on its way as the wait's time ran out,
// "the wait timed out": every process had the same deadline, and none
// failed.
func stoppedBy(results []rules.Result) string {
	first, failed := firstFailed(results)
	if failed && onItsWay(first.State) {
		return "the wait timed out"
	}
	return first.Name + " failed"
}

// onItsWay says whether a process in state may still become ready by
// itself.
func onItsWay(state rules.State) bool {
	switch state {
	case rules.StatePending, rules.StateStarting:
		return true
	}
	return false
}

// firstFailed is, of results in start order, the first that failed
// other than by being blocked (a blocked one names its cause in its own
// message), else the first that failed; failed is false if none did.
func firstFailed(results []rules.Result) (first rules.Result, failed bool) {
	for _, res := range results {
		switch {
		case res.Success:
		case res.State != rules.StateBlocked:
			return res, true
		case !failed:
			first, failed = res, true
		}
	}
	return first, failed
}
