package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// TestLastWordShowsTheNextRun: a scheduled task's LAST column says its
// state's reason, then when it runs next.
func TestLastWordShowsTheNextRun(t *testing.T) {
	next := time.Now().Add(28*time.Minute + 15*time.Second)
	st := compose.ProcStatus{State: rules.StateStopped, Reason: rules.ReasonScheduled, Message: "scheduled: every 30m",
		Schedule: &wire.ScheduleStatus{Spec: "every 30m", NextRun: &next}}
	assert.Regexp(t, `^next run in 28m \(.+\) · scheduled: every 30m$`, lastWord(st))
	st.Schedule.NextRun = nil
	assert.Equal(t, "scheduled: every 30m", lastWord(st))
	st.Reason, st.Message = "", ""
	st.Schedule.NextRun = &next
	assert.Regexp(t, `^next run in 28m \(.+\)$`, lastWord(st))
	assert.Equal(t, "-", lastWord(compose.ProcStatus{}))
}
