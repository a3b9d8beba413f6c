package mcp

import (
	"time"

	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// Schedule is when a scheduled task runs, as list_processes and
// get_process return it.
type Schedule struct {
	Spec         string     `json:"spec" jsonschema:"when the task runs, e.g. every 30m or cron 0 2 * * * (UTC); start_process runs it now, without moving its next time"`
	NextRun      *time.Time `json:"nextRun,omitempty" jsonschema:"the next time it runs"`
	LastRun      *LastRun   `json:"lastRun,omitempty" jsonschema:"how its last run ended, whatever started it"`
	SkippedTimes int        `json:"skippedTimes,omitempty" jsonschema:"scheduled times skipped because a run was still going (one run at a time)"`
	MissedTimes  int        `json:"missedTimes,omitempty" jsonschema:"scheduled times that passed while the machine slept: not run later"`
}

// LastRun is how the last run of a scheduled task ended.
type LastRun struct {
	Run      int         `json:"run" jsonschema:"the run number"`
	State    rules.State `json:"state" jsonschema:"completed, failed or stopped"`
	ExitCode *int        `json:"exitCode,omitempty" jsonschema:"its exit code, when its process ran"`
	EndedAt  time.Time   `json:"endedAt" jsonschema:"when it ended"`
}

// scheduleOf converts the control API's schedule; nil without one.
func scheduleOf(s *wire.ScheduleStatus) *Schedule {
	if s == nil {
		return nil
	}
	out := &Schedule{Spec: s.Spec, NextRun: s.NextRun, SkippedTimes: s.Skipped, MissedTimes: s.Missed}
	if l := s.LastRun; l != nil {
		out.LastRun = &LastRun{Run: l.Run, State: l.State, ExitCode: l.ExitCode, EndedAt: l.EndedAt}
	}
	return out
}
