package compose

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// TestAProfileActivatedOnARunningProcsSchedulesItsTasks: a reload that
// makes a profile active (procs up --profile on a running procs) starts its
// processes and schedules its scheduled tasks, as an engine started with
// the profile does; a later reload without it keeps it active.
func TestAProfileActivatedOnARunningProcsSchedulesItsTasks(t *testing.T) {
	te := startEngine(t, `
procs:
  api: {command: "echo up; exec sleep 60", readyPatterns: [up]}
  e2e: {command: "echo up; exec sleep 60", readyPatterns: [up], profiles: [e2e]}
  probe: {kind: task, command: "echo probe", profiles: [e2e], schedule: {every: 1h}}
`, Options{NoWatchdog: true})
	file := filepath.Join(te.dir, "procs.yaml")
	te.opts.Load = func() (*config.Config, error) {
		return config.Load(config.LoadOptions{File: file, Environ: os.Environ()})
	}
	te.waitState("api", rules.StateReady)
	st := te.statusOf("probe")
	assert.Equal(t, rules.ReasonProfile, st.Reason)
	assert.Nil(t, st.Schedule)

	rec, err := te.Reload(nil, nil, []string{"e2e"})
	require.NoError(t, err)
	assert.Equal(t, []string{"e2e"}, rec.Started)
	te.waitInfo("probe", "schedule set: every 1h")
	st = te.statusOf("probe")
	assert.Equal(t, rules.StateStopped, st.State)
	assert.Equal(t, rules.ReasonScheduled, st.Reason)
	assert.Equal(t, "scheduled: every 1h", st.Message)
	require.NotNil(t, st.Schedule)
	assert.NotNil(t, st.Schedule.NextRun)
	te.waitTargets(rec.Waits)

	rec, err = te.Reload(nil, nil, nil)
	require.NoError(t, err)
	assert.True(t, rec.Diff.Empty())
	assert.Empty(t, rec.Started)
	assert.NotNil(t, te.statusOf("probe").Schedule, "no reload makes a profile inactive")
}
