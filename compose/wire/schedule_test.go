package wire

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

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

func TestScheduleTexts(t *testing.T) {
	now := time.Date(2026, 3, 1, 13, 32, 0, 0, time.Local)
	next, ended, code := now.Add(28*time.Minute), now.Add(-2*time.Minute), 3
	s := &ScheduleStatus{Spec: "every 30m", NextRun: &next,
		LastRun: &ScheduledRun{Run: 4, State: rules.StateFailed, ExitCode: &code, EndedAt: ended}}
	assert.Equal(t, "next run in 28m (14:00:00)", s.NextRunText(now))
	assert.Equal(t, "last: failed (exit 3) at 13:30:00", s.LastRunText(now))
	var none *ScheduleStatus
	assert.Empty(t, none.NextRunText(now))
	assert.Empty(t, none.LastRunText(now))
}
