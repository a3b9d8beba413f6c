package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

func TestUntilTime(t *testing.T) {
	now := time.Date(2026, 3, 1, 13, 32, 0, 0, time.Local)
	for _, tc := range []struct {
		in   time.Duration
		want string
	}{
		{-time.Second, "now (13:31:59)"},
		{400 * time.Millisecond, "in 1s (13:32:00)"},
		{28 * time.Second, "in 28s (13:32:28)"},
		{28 * time.Minute, "in 28m (14:00:00)"},
		{5*time.Hour + 10*time.Minute, "in 5h (18:42:00)"},
		{12*time.Hour + 28*time.Minute, "in 12h (Mar 2 02:00)"},
		{72 * time.Hour, "in 3d (Mar 4 13:32)"},
	} {
		assert.Equal(t, tc.want, untilTime(now.Add(tc.in), now), "%s", tc.in)
	}
}

// TestLastWordShowsTheNextRun: a scheduled task's LAST column says its
// state's reason, then when it runs next.
func TestLastWordShowsTheNextRun(t *testing.T) {
	next := time.Now().Add(28*time.Minute + 15*time.Second)
	st := compose.ProcStatus{State: rules.StateStopped, Reason: rules.ReasonScheduled, Message: "every 30m",
		Schedule: &wire.ScheduleStatus{Spec: "every 30m", NextRun: &next}}
	assert.Regexp(t, `^scheduled: every 30m · next run in 28m \(.+\)$`, lastWord(st))
	st.Schedule.NextRun = nil
	assert.Equal(t, "scheduled: every 30m", lastWord(st))
	assert.Equal(t, "-", lastWord(compose.ProcStatus{}))
}
