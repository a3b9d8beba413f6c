package lifecycle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

const scheduledConfig = `procs:
  api: {command: ./api}
  backup: {kind: task, command: ./backup, schedule: {every: 1h}}
`

// newScheduledMachine is the machine procs up makes of scheduledConfig:
// backup is left to its schedule.
func newScheduledMachine(t *testing.T, opts Options) *Machine {
	cfg := parse(t, scheduledConfig)
	order, err := cfg.StartOrder()
	require.NoError(t, err)
	wanted := map[string]bool{}
	for _, name := range cfg.UpSet(nil) {
		wanted[name] = true
	}
	return New(cfg, order, wanted, nil, opts)
}

// TestScheduledTaskReadsAsScheduled: a task left to its schedule is
// stopped, saying it is scheduled and when, not "not started"; it says
// not started again once its schedule is gone.
func TestScheduledTaskReadsAsScheduled(t *testing.T) {
	m := newScheduledMachine(t, Options{})
	backup := m.Proc("backup")
	assert.Equal(t, rules.ReasonNotStarted, backup.Reason, "until the engine arms its schedule")
	m.Scheduled("backup", "every 1h", true)
	m.Begin()
	assert.Equal(t, rules.StateStopped, backup.State)
	assert.Equal(t, rules.ReasonScheduled, backup.Reason)
	assert.Equal(t, "scheduled: every 1h", backup.Message)
	assert.Equal(t, rules.StateStarting, m.Proc("api").State)
	assert.False(t, backup.Busy())

	m.Scheduled("backup", "", false)
	assert.Equal(t, rules.ReasonNotStarted, backup.Reason)
	assert.Empty(t, m.Refused())
}

// TestArmedScheduleKeepsProcsUp: the engine ends once nothing runs or
// can start; an armed schedule will start its task, so it stays up until
// Down.
func TestArmedScheduleKeepsProcsUp(t *testing.T) {
	m := newScheduledMachine(t, Options{})
	m.Scheduled("backup", "every 1h", true)
	m.Begin()
	_, err := m.Stop("api")
	require.NoError(t, err)
	m.Exited("api", 1, rules.Verdict{State: rules.StateStopped, Reason: rules.ReasonStopped})
	assert.False(t, m.Settled(), "backup runs at its next time")

	m.Scheduled("backup", "", false)
	assert.True(t, m.Settled(), "nothing left to start")

	m = newScheduledMachine(t, Options{StayUp: true})
	m.Scheduled("backup", "every 1h", true)
	m.Begin()
	m.Down("down")
	m.Exited("api", 1, rules.Verdict{State: rules.StateStopped, Reason: rules.ReasonStopped})
	assert.True(t, m.Settled(), "down ends procs whatever its schedules")
}

// TestScheduledRunIsBusyUntilItEnds: a run started for a scheduled time
// is busy, so the next time is skipped, while it waits, runs and stops.
func TestScheduledRunIsBusyUntilItEnds(t *testing.T) {
	m := newScheduledMachine(t, Options{})
	m.Scheduled("backup", "every 1h", true)
	m.Begin()
	backup := m.Proc("backup")
	run, err := m.Start("backup")
	require.NoError(t, err)
	assert.Equal(t, 1, run)
	assert.True(t, backup.Busy(), "starting")
	m.Started("backup", 1, 42)
	assert.True(t, backup.Busy(), "running")
	m.Exited("backup", 1, rules.Verdict{State: rules.StateCompleted, Reason: rules.ReasonCompleted, ExitCode: 0})
	assert.Equal(t, rules.StateCompleted, backup.State)
	assert.False(t, backup.Busy(), "completed")
	assert.Empty(t, m.Refused())
}

// TestOnlyScheduledTasksStayUp: procs up in the foreground with nothing
// but a scheduled task does not end at once, as it would with a task
// that never ran.
func TestOnlyScheduledTasksStayUp(t *testing.T) {
	cfg := parse(t, "procs:\n  backup: {kind: task, command: ./backup, schedule: {cron: '@daily'}}\n")
	m := New(cfg, []string{"backup"}, map[string]bool{}, nil, Options{StayUp: true})
	m.Begin()
	assert.True(t, m.Settled(), "no schedule armed: nothing would ever start")
	m.Scheduled("backup", "cron @daily", true)
	assert.False(t, m.Settled())
}
