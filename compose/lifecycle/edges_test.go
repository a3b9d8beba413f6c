package lifecycle

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// edgeConfig is the project every edge is walked in: w depends on dep
// (ready, or started for the edge from blocked to starting), and restarts
// by its policy only where the edge needs it.
func edgeConfig(condition, policy string) string {
	return fmt.Sprintf(`
procs:
  dep: {command: dep}
  w: {command: w, dependsOn: {dep: %s}, restart: {policy: %s, backoff: 1s..1s}}
`, condition, policy)
}

// verdictOf is a verdict that puts a live run in state st.
func verdictOf(st rules.State) rules.Verdict {
	switch st {
	case rules.StateFailed:
		return rules.Verdict{State: st, Reason: rules.ReasonTimeout, Message: "no ready line after 30s"}
	case rules.StateStarting:
		return rules.Verdict{State: st, Reason: rules.ReasonNotReady}
	}
	return rules.Verdict{State: st, Reason: rules.Reason(st)}
}

// reach drives w into state from, ready for the edge to to; it returns
// false when w is not there (which fails the test). A failed run is alive
// for an edge to a live state or to stopping, and has ended otherwise.
func reach(r *rig, from, to rules.State) bool {
	m := r.m
	running := slices.Contains(alive, to) || to == stopping
	switch {
	case to == backoff:
		// The policy takes a run on in the input that ends it: from the
		// start of that run.
		becomesReady("dep")(r)
		return m.Proc("w").State == starting
	case from == blocked && to == starting:
		// w needs dep started: it is blocked only while dep has failed.
		_, _ = m.Stop("w")
		exits("w", stopExit)(r)
		exits("dep", crash)(r)
		_, _ = m.Start("w")
	case from == failed && !running:
		becomesReady("dep")(r)
		exits("w", crash)(r)
	case from == pending:
	case from == blocked:
		exits("dep", crash)(r)
	case slices.Contains(alive, from):
		becomesReady("dep")(r)
		if from != starting {
			m.Verdict("w", 1, verdictOf(from))
		}
	case from == stopping:
		becomesReady("dep")(r)
		_, _ = m.Stop("w")
	case from == completed:
		becomesReady("dep")(r)
		exits("w", exit0)(r)
	case from == stopped:
		becomesReady("dep")(r)
		_, _ = m.Stop("w")
		exits("w", stopExit)(r)
	case from == backoff:
		becomesReady("dep")(r)
		exits("w", crash)(r)
	default:
		return false
	}
	return m.Proc("w").State == from
}

// cross applies the input that takes w from its state to to.
func cross(r *rig, from, to rules.State) {
	m, run := r.m, r.m.Proc("w").Run
	switch {
	case slices.Contains(alive, from) && slices.Contains(alive, to):
		m.Verdict("w", run, verdictOf(to))
	case to == stopping:
		_, _ = m.Stop("w")
	case from == stopping && to == pending:
		_, _ = m.Restart([]string{"w"}, false)
		exits("w", stopExit)(r)
	case from == stopping: // started again while it stopped: its own exit decides
		_, _ = m.Start("w")
		exits("w", map[rules.State]rules.Verdict{stopped: stopExit, failed: crash, completed: exit0}[to])(r)
	case to == completed:
		exits("w", exit0)(r)
	case to == stopped && m.Proc("w").Running():
		exits("w", stopExit)(r)
	case from == completed && to == stopped:
		// A stop leaves a completed task completed; its removal does not.
		removeW(r)
	case to == stopped:
		_, _ = m.Stop("w")
	case to == backoff: // the end of a run the policy brings back
		switch from {
		case failed:
			exits("w", crash)(r)
		case completed:
			exits("w", exit0)(r)
		case stopped:
			exits("w", stopExit)(r)
		}
	case from == backoff && to == pending:
		m.BackoffFired("w", m.Proc("w").intent.backoffGen)
	case from == blocked && to == pending:
		_, _ = m.Start("dep")
	case from == blocked && to == starting:
		_, _ = m.Start("dep") // w needs dep started only
	case to == starting:
		becomesReady("dep")(r)
	case to == blocked:
		exits("dep", crash)(r)
	case to == pending:
		_, _ = m.Start("w")
	}
}

// removeW applies the edge's project without w.
func removeW(r *rig) {
	r.t.Helper()
	prev, next := parse(r.t, edgeConfig("ready", "no")), parse(r.t, "procs:\n  dep: {command: dep}\n")
	order, err := next.StartOrder()
	require.NoError(r.t, err)
	_, err = r.m.Reconcile(next, order, config.DiffConfigs(prev, next), nil, Up{})
	require.NoError(r.t, err)
}

// TestEveryLegalEdge walks the table: for each edge of Transitions, it
// drives a process to the edge's first state and takes it over the edge
// with the input the table names. Together with the refusal of any other
// edge (the fuzz test), the table is the lifecycle, exactly.
func TestEveryLegalEdge(t *testing.T) {
	for edge := range Transitions() {
		t.Run(fmt.Sprintf("%s→%s", edge.From, edge.To), func(t *testing.T) {
			condition, policy := "ready", "no"
			if edge.From == blocked && edge.To == starting {
				condition = "started"
			}
			if edge.To == backoff || edge.From == backoff {
				policy = "always"
			}
			r := newRig(t, edgeConfig(condition, policy), Options{})
			if !reach(r, edge.From, edge.To) {
				t.Fatalf("w did not reach %s: it is %s", edge.From, r.m.Proc("w").State)
			}
			r.take()
			cross(r, edge.From, edge.To)
			want := fmt.Sprintf("w:%s>%s", edge.From, edge.To)
			if taken := edges(r.take()); !slices.Contains(taken, want) {
				t.Fatalf("took %v, not %s", taken, want)
			}
			if refused := r.m.Refused(); len(refused) > 0 {
				t.Fatalf("illegal edges asked: %v", refused)
			}
		})
	}
}
