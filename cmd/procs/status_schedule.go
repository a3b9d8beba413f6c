package main

import (
	"fmt"
	"time"

	"github.com/procsdev/procs/compose"
)

// scheduleWord says when a scheduled task runs next, for the LAST column:
// "next run in 28m (14:00:00)"; "" for a process without a schedule.
func scheduleWord(st compose.ProcStatus, now time.Time) string {
	if st.Schedule == nil || st.Schedule.NextRun == nil {
		return ""
	}
	return "next run " + untilTime(*st.Schedule.NextRun, now)
}

// untilTime says how far t is from now and when it is: "in 28m
// (14:00:00)", "in 2d (Mar 3 02:00)".
func untilTime(t, now time.Time) string {
	t = t.Local()
	when := t.Format("15:04:05")
	if y, m, d := t.Date(); y != now.Year() || m != now.Month() || d != now.Day() {
		when = t.Format("Jan 2 15:04")
	}
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
