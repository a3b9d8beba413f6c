package main

import (
	"time"

	"github.com/procsdev/procs/compose"
)

// scheduleWord says when a scheduled task runs next, for the LAST column:
// "next run in 28m (14:00:00)"; "" for a process without a schedule.
func scheduleWord(st compose.ProcStatus, now time.Time) string {
	return st.Schedule.NextRunText(now)
}
