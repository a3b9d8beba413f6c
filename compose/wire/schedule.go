package wire

import (
	"fmt"
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

// NextRunText says when the task runs next, as the status table and the
// dashboards show it: "next run in 28m (14:00:00)"; "" when it has no
// next run (or no schedule).
func (s *ScheduleStatus) NextRunText(now time.Time) string {
	if s == nil || s.NextRun == nil {
		return ""
	}
	return "next run " + untilTime(*s.NextRun, now)
}

// LastRunText says how the last run ended: "last: completed (exit 0) at
// 13:30:00"; "" before the first run has ended.
func (s *ScheduleStatus) LastRunText(now time.Time) string {
	if s == nil || s.LastRun == nil {
		return ""
	}
	text := "last: " + string(s.LastRun.State)
	if s.LastRun.ExitCode != nil {
		text += fmt.Sprintf(" (exit %d)", *s.LastRun.ExitCode)
	}
	return text + " at " + clock(s.LastRun.EndedAt, now)
}

// untilTime says how far t is from now and when it is: "in 28m
// (14:00:00)", "in 2d (Mar 3 02:00)".
func untilTime(t, now time.Time) string {
	when := clock(t, now)
	d := t.Sub(now)
	switch {
	case d <= 0:
		return "now (" + when + ")"
	case d < time.Minute:
		// Rounded up: a run due in 0.4s is not "in 0s".
		return fmt.Sprintf("in %ds (%s)", int((d+time.Second-1)/time.Second), when)
	case d < time.Hour:
		return fmt.Sprintf("in %dm (%s)", int(d.Round(time.Minute).Minutes()), when)
	case d < 48*time.Hour:
		return fmt.Sprintf("in %dh (%s)", int(d.Round(time.Hour).Hours()), when)
	}
	return fmt.Sprintf("in %dd (%s)", int(d.Round(24*time.Hour).Hours()/24), when)
}

// clock is t in local time: 14:00:00 when it is the day of now, else
// "Mar 3 02:00".
func clock(t, now time.Time) string {
	t = t.In(now.Location())
	if y, m, d := t.Date(); y != now.Year() || m != now.Month() || d != now.Day() {
		return t.Format("Jan 2 15:04")
	}
	return t.Format("15:04:05")
}
