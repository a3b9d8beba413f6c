package wire

import (
	"time"

	"github.com/procsdev/procs/rules"
)

// ScheduleStatus is the schedule of a task (schedule: in procs.yaml), as
// status, the API and the dashboards show it.
type ScheduleStatus struct {
	// Spec says when the task runs: "every 30m", "cron 0 2 * * * (UTC)".
	Spec string `json:"spec"`
	// NextRun is the next time the task runs; nil when procs is stopping.
	NextRun *time.Time `json:"nextRun,omitempty"`
	// LastRun is how the last run ended, whatever started it (the
	// schedule, procs run, procs start); nil before the first one ends.
	LastRun *ScheduledRun `json:"lastRun,omitempty"`
	// Skipped counts the times skipped because a run was still under way.
	Skipped int `json:"skipped,omitempty"`
	// Missed counts the times that passed while procs could not run them
	// (the machine asleep): they are not run later.
	Missed int `json:"missed,omitempty"`
}

// ScheduledRun is how one run of a scheduled task ended.
type ScheduledRun struct {
	Run      int         `json:"run"`
	State    rules.State `json:"state"`
	ExitCode *int        `json:"exitCode,omitempty"`
	// EndedAt is when the run ended.
	EndedAt time.Time `json:"endedAt"`
}
