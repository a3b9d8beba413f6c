package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// TestScheduledTaskShowsItsNextRun: a scheduled task's row says when it
// runs next; selected, the pane title says its schedule and last run.
func TestScheduledTaskShowsItsNextRun(t *testing.T) {
	m := offline(t, Options{}, 140, 30)
	now := m.now()
	next, ended, code := now.Add(28*time.Minute), now.Add(-2*time.Minute), 0
	m.Update(connectedMsg{info: control.Info{PID: 42, StartedAt: now}, procs: []wire.ProcStatus{
		{Name: "backup", Kind: "task", State: rules.StateCompleted, Run: 3, Reason: rules.ReasonCompleted, Message: "exit code 0",
			Schedule: &wire.ScheduleStatus{Spec: "every 30m", NextRun: &next,
				LastRun: &wire.ScheduledRun{Run: 3, State: rules.StateCompleted, ExitCode: &code, EndedAt: ended}}},
	}})
	out := plain(m)
	row := lineOf(out, "backup")
	sc := m.procs[0].Schedule // its texts name the day when it is not today
	assert.Regexp(t, `next run in 28m \(.+\) · completed: exit code 0`, row)
	assert.Contains(t, row, sc.NextRunText(now)+" · completed: exit code 0")
	assert.Contains(t, out, "── backup · log · every 30m, last: completed (exit 0) at ")
	assert.Contains(t, out, sc.LastRunText(now))
	assert.False(t, strings.Contains(lineOf(out, "NAME"), "next run"))
}
