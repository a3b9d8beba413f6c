package systemd

import (
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/export"
	"github.com/procsdev/procs/internal/testenv"
)

// calendarCases are cron expressions procs accepts and the OnCalendar=
// lines they become.
var calendarCases = []struct {
	cron string
	want []string
}{
	{"0 2 * * *", []string{"*-*-* 02:00:00"}},
	{"*/15 9-17 * * MON-FRI", []string{"Mon..Fri *-*-* 09..17:00/15:00"}},
	{"5 4 * * 0,6", []string{"Sat,Sun *-*-* 04:05:00"}},
	{"0 0 * * 0-2", []string{"Mon,Tue,Sun *-*-* 00:00:00"}},
	{"1,2,7 * * * *", []string{"*-*-* *:01,02,07:00"}},
	{"10-50/20 * * * *", []string{"*-*-* *:10/20:00"}},
	{"10-40/10 * * * *", []string{"*-*-* *:10..40/10:00"}},
	{"0 0 * * 1-3,5", []string{"Mon..Wed,Fri *-*-* 00:00:00"}},
	{"5/15 * * * *", []string{"*-*-* *:05/15:00"}},
	{"0 12 */2 * *", []string{"*-*-01/2 12:00:00"}},
	{"0 0 * 1-6/2 *", []string{"*-01..05/2-* 00:00:00"}},
	{"0 0 1 jan,jul *", []string{"*-01,07-01 00:00:00"}},
	{"30 6 ? * *", []string{"*-*-* 06:30:00"}},
	// Both days restricted: cron runs on either, systemd ORs two lines.
	{"0 0 1,15 * 1", []string{"*-*-01,15 00:00:00", "Mon *-*-* 00:00:00"}},
	{"@daily", []string{"*-*-* 00:00:00"}},
	{"@midnight", []string{"*-*-* 00:00:00"}},
	{"@hourly", []string{"*-*-* *:00:00"}},
	{"@weekly", []string{"Sun *-*-* 00:00:00"}},
	{"@monthly", []string{"*-*-01 00:00:00"}},
	{"@yearly", []string{"*-01-01 00:00:00"}},
	{"* * * * *", []string{"*-*-* *:*:00"}},
}

// TestOnCalendar checks the OnCalendar= lines of cron expressions, and
// the timezone written after them.
func TestOnCalendar(t *testing.T) {
	for _, c := range calendarCases {
		t.Run(c.cron, func(t *testing.T) {
			got, err := onCalendar(&export.Schedule{Cron: c.cron})
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
	got, err := onCalendar(&export.Schedule{Cron: "0 2 * * *", Timezone: "Europe/Paris"})
	require.NoError(t, err)
	assert.Equal(t, []string{"*-*-* 02:00:00 Europe/Paris"}, got)
}

// TestOnCalendarMatchesProcs has systemd compute the next times of each
// converted expression and checks them against the times procs runs the
// task at: the same, one by one.
func TestOnCalendarMatchesProcs(t *testing.T) {
	analyze := testenv.LookPath(t, "systemd-analyze")
	base := time.Date(2024, 1, 1, 0, 0, 30, 0, time.UTC)
	for _, c := range calendarCases {
		t.Run(c.cron, func(t *testing.T) {
			const iterations = 60
			schedule := &config.Schedule{Cron: c.cron, Timezone: "UTC"}
			lines, err := onCalendar(&export.Schedule{Cron: c.cron, Timezone: "UTC"})
			require.NoError(t, err)
			var got []time.Time
			for _, line := range lines {
				got = append(got, systemdTimes(t, analyze, line, base, iterations)...)
			}
			want := make([]time.Time, 0, iterations)
			for next := base; len(want) < iterations; {
				next = schedule.Next(base, next)
				want = append(want, next)
			}
			// Two lines: their times merged, the first ones compared.
			got = sortedUnique(got)[:iterations]
			assert.Equal(t, want, got)
		})
	}
}

// systemdTimes asks systemd-analyze calendar for the first n times of
// the calendar event after base.
func systemdTimes(t *testing.T, analyze, event string, base time.Time, n int) []time.Time {
	t.Helper()
	cmd := exec.Command(analyze, "calendar", "--iterations="+strconv.Itoa(n), "--base-time="+base.Format("2006-01-02 15:04:05 UTC"), event)
	cmd.Env = append(os.Environ(), "TZ=UTC", "LC_ALL=C")
	output, err := cmd.CombinedOutput()
	require.NoError(t, err, "systemd-analyze calendar %q:\n%s", event, output)
	var times []time.Time
	for _, line := range strings.Split(string(output), "\n") {
		_, value, ok := strings.Cut(line, ": ")
		label := strings.TrimSpace(line)
		if !ok || !strings.HasPrefix(label, "Next elapse:") && !strings.HasPrefix(label, "Iter. #") {
			continue
		}
		at, err := time.Parse("Mon 2006-01-02 15:04:05 MST", strings.TrimSpace(value))
		require.NoError(t, err, line)
		times = append(times, at.UTC())
	}
	require.Len(t, times, n, "%s", output)
	return times
}

// sortedUnique sorts times and drops repeats.
func sortedUnique(times []time.Time) []time.Time {
	slices.SortFunc(times, time.Time.Compare)
	return slices.CompactFunc(times, time.Time.Equal)
}
