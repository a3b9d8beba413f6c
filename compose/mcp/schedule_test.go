package mcp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// TestScheduledTaskInProcessList: list_processes and get_process carry a
// scheduled task's schedule, next run and last run.
func TestScheduledTaskInProcessList(t *testing.T) {
	c := project(t, "procs:\n  backup: {kind: task, command: \"echo backed up\", schedule: {every: 1h, runOnStart: true}}\n")
	c.waitReady(t, "backup")
	detail := succeed[ProcessDetail](t, c, "get_process", map[string]any{"name": "backup"})
	s := detail.Process.Schedule
	require.NotNil(t, s)
	assert.Equal(t, "every 1h", s.Spec)
	require.NotNil(t, s.NextRun)
	assert.True(t, s.NextRun.After(time.Now().Add(59*time.Minute)))
	require.NotNil(t, s.LastRun)
	assert.Equal(t, rules.StateCompleted, s.LastRun.State)
	list := succeed[ProcessList](t, c, "list_processes", nil)
	require.Len(t, list.Processes, 1)
	assert.Equal(t, "every 1h", list.Processes[0].Schedule.Spec)
}
