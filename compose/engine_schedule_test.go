package compose

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// statusOf is the status of one process of te.
func (te *testEngine) statusOf(name string) ProcStatus {
	te.t.Helper()
	st, err := te.StatusOf(name)
	require.NoError(te.t, err)
	return st
}

// waitRunState waits for run of name to reach state.
func (te *testEngine) waitRunState(name string, run int, state rules.State) Event {
	te.t.Helper()
	return te.waitFor(fmt.Sprintf("%s run %d %s", name, run, state), func(ev Event) bool {
		return ev.Type == EventState && ev.Proc == name && ev.Run == run && ev.To == state
	})
}

// TestEveryTaskRunsAgainAndAgain: a task scheduled every second is not
// run by up, reads as scheduled with its next run, then runs on time, once
// a second, while procs stays up for it (it has nothing else to run).
func TestEveryTaskRunsAgainAndAgain(t *testing.T) {
	te := startEngine(t, "procs:\n  tick: {kind: task, command: \"echo tick\", schedule: {every: 1s}}\n",
		Options{NoWatchdog: true, StayUp: true})
	st := te.statusOf("tick")
	assert.Equal(t, rules.StateStopped, st.State)
	assert.Equal(t, rules.ReasonScheduled, st.Reason)
	assert.Equal(t, "scheduled: every 1s", st.Message)
	require.NotNil(t, st.Schedule)
	assert.Equal(t, "every 1s", st.Schedule.Spec)
	require.NotNil(t, st.Schedule.NextRun)
	assert.WithinDuration(t, time.Now().Add(time.Second), *st.Schedule.NextRun, time.Second)
	assert.Nil(t, st.Schedule.LastRun)

	for run := 1; run <= 3; run++ {
		te.waitInfo("tick", fmt.Sprintf("run %d started", run))
		te.waitRunState("tick", run, rules.StateCompleted)
	}
	st = te.statusOf("tick")
	require.NotNil(t, st.Schedule.LastRun)
	assert.GreaterOrEqual(t, st.Schedule.LastRun.Run, 3)
	assert.Equal(t, rules.StateCompleted, st.Schedule.LastRun.State)
	require.NotNil(t, st.Schedule.LastRun.ExitCode)
	assert.Equal(t, 0, *st.Schedule.LastRun.ExitCode)
	assert.True(t, st.Schedule.NextRun.After(st.Schedule.LastRun.EndedAt))
	select {
	case <-te.done:
		t.Fatal("procs ended with a schedule armed")
	default:
	}
	require.NoError(t, te.Down())
	assert.Equal(t, "down", te.waitOutcome().Ended)
}

// TestScheduledTimeDuringARunIsSkipped: with one run at a time, a time
// that comes while the last run goes on is skipped, and says so.
func TestScheduledTimeDuringARunIsSkipped(t *testing.T) {
	te := startEngine(t, "procs:\n  slow: {kind: task, command: \"echo working; sleep 60\", schedule: {every: 1s}}\n",
		Options{NoWatchdog: true, StayUp: true})
	te.waitRunState("slow", 1, rules.StateStarting)
	ev := te.waitInfo("slow", "skipped the run due at")
	assert.Equal(t, rules.ReasonScheduled, ev.Reason)
	assert.Contains(t, ev.Message, "run 1 still running (starting); next run at ")
	st := te.statusOf("slow")
	assert.Equal(t, 1, st.Run, "no second run beside the first")
	assert.GreaterOrEqual(t, st.Schedule.Skipped, 1)
}

// TestManualRunKeepsTheSchedule: procs run (Start) runs a scheduled task
// now; its next scheduled time stays where it was. runOnStart runs it at up.
func TestManualRunKeepsTheSchedule(t *testing.T) {
	te := startEngine(t, "procs:\n  hourly: {kind: task, command: \"echo hourly\", schedule: {every: 1h, runOnStart: true}}\n",
		Options{NoWatchdog: true, StayUp: true})
	te.waitRunState("hourly", 1, rules.StateCompleted)
	before := te.statusOf("hourly").Schedule.NextRun
	require.NotNil(t, before)
	run, err := te.Start("hourly")
	require.NoError(t, err)
	assert.Equal(t, 2, run)
	te.waitRunState("hourly", 2, rules.StateCompleted)
	st := te.statusOf("hourly")
	assert.Equal(t, *before, *st.Schedule.NextRun, "a manual run does not move the schedule")
	assert.Equal(t, 2, st.Schedule.LastRun.Run)
}

// TestReloadRearmsAndCancelsSchedules: a new schedule re-arms the timer
// without running the task; a schedule removed cancels it, and the task
// says it is no longer scheduled.
func TestReloadRearmsAndCancelsSchedules(t *testing.T) {
	te := startEngine(t, "procs:\n  job: {kind: task, command: \"echo job\", schedule: {every: 1h}}\n",
		Options{NoWatchdog: true, StayUp: true})
	first := te.statusOf("job").Schedule
	require.NotNil(t, first)

	rec, err := te.Apply(te.reload("procs:\n  job: {kind: task, command: \"echo job\", schedule: {cron: \"@yearly\", timezone: UTC}}\n"), nil)
	require.NoError(t, err)
	assert.Empty(t, rec.Started)
	assert.Empty(t, rec.Restarted)
	te.waitInfo("job", "schedule set: cron @yearly (UTC)")
	st := te.statusOf("job")
	assert.Equal(t, 0, st.Run, "a new schedule does not run the task")
	assert.Equal(t, "cron @yearly (UTC)", st.Schedule.Spec)
	assert.Equal(t, "scheduled: cron @yearly (UTC)", st.Message)
	require.NotNil(t, st.Schedule.NextRun)
	assert.Equal(t, 1, st.Schedule.NextRun.UTC().Day())
	assert.Equal(t, time.January, st.Schedule.NextRun.UTC().Month())

	rec, err = te.Apply(te.reload("procs:\n  job: {kind: task, command: \"echo job v2\", schedule: {cron: \"@yearly\", timezone: UTC}}\n"), nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"job"}, rec.Updated, "an edited scheduled task runs its new command at its next time")
	assert.Empty(t, rec.Started)
	assert.Equal(t, 0, te.statusOf("job").Run)

	_, err = te.Apply(te.reload("procs:\n  job: {kind: task, command: \"echo job v2\"}\n  api: {command: \"sleep 60\"}\n"), nil)
	require.NoError(t, err)
	te.waitInfo("job", "schedule removed: no more scheduled runs")
	st = te.statusOf("job")
	assert.Nil(t, st.Schedule)
	assert.Equal(t, rules.ReasonNotStarted, st.Reason)
	armed := -1
	require.NoError(t, te.do(func() { armed = len(te.schedules) }))
	assert.Equal(t, 0, armed, "no timer left")
}

// TestMissedTimeIsNotRun: a time long past when its timer fires (the
// machine slept) is counted as missed, not run, and the next one is after
// now.
func TestMissedTimeIsNotRun(t *testing.T) {
	te := startEngine(t, "procs:\n  nightly: {kind: task, command: \"echo nightly\", schedule: {cron: \"0 2 * * *\"}}\n",
		Options{NoWatchdog: true, StayUp: true})
	te.statusOf("nightly") // the engine runs
	require.NoError(t, te.do(func() {
		sc := te.schedules["nightly"]
		sc.next = time.Now().Add(-6 * time.Hour)
		te.scheduleFired(sc, sc.gen)
	}))
	te.waitInfo("nightly", "missed the run due at")
	st := te.statusOf("nightly")
	assert.Equal(t, 0, st.Run)
	assert.Equal(t, 1, st.Schedule.Missed)
	assert.True(t, st.Schedule.NextRun.After(time.Now()))
}
