package config

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScheduleDecode(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(`procs:
  backup:
    kind: task
    command: ./backup.sh
    schedule: {cron: "0 2 * * *", timezone: UTC}
  sync:
    kind: task
    command: ./sync.sh
    schedule: {every: 30m, runOnStart: true, maxConcurrent: 1}
  zoned:
    kind: task
    command: ./zoned.sh
    schedule:
      cron: CRON_TZ=Asia/Tokyo @daily
  api:
    command: ./api
    dependsOn: [sync]
`), nil)
	require.NoError(t, err)
	backup, sync, zoned := cfg.Procs["backup"].Schedule, cfg.Procs["sync"].Schedule, cfg.Procs["zoned"].Schedule
	require.NotNil(t, backup)
	assert.Equal(t, "0 2 * * *", backup.Cron)
	assert.Equal(t, "UTC", backup.Timezone)
	assert.Equal(t, "cron 0 2 * * * (UTC)", backup.String())
	assert.Equal(t, 30*time.Minute, sync.Every.D())
	assert.True(t, sync.RunOnStart)
	assert.Equal(t, "every 30m", sync.String())
	assert.Nil(t, cfg.Procs["api"].Schedule)

	// procs up leaves backup and zoned to their schedules; sync runs on
	// start (and would anyway, as api's dependency).
	assert.True(t, cfg.Procs["backup"].WaitsForSchedule())
	assert.False(t, cfg.Procs["sync"].WaitsForSchedule())
	assert.Equal(t, []string{"api", "sync"}, cfg.UpSet(nil))

	at := time.Date(2026, 3, 1, 14, 7, 30, 0, time.UTC)
	assert.Equal(t, time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC), backup.Next(at, at).UTC())
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	assert.Equal(t, time.Date(2026, 3, 2, 0, 0, 0, 0, tokyo).UTC(), zoned.Next(at, at).UTC(), "midnight in Tokyo")
}

func TestScheduleNextEvery(t *testing.T) {
	s := &Schedule{Every: Duration(10 * time.Second)}
	anchor := time.Date(2026, 3, 1, 14, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		after time.Duration
		want  time.Duration
	}{
		{-time.Second, 10 * time.Second}, // before it was armed
		{0, 10 * time.Second},
		{9 * time.Second, 10 * time.Second},
		{10 * time.Second, 20 * time.Second},  // strictly after
		{95 * time.Second, 100 * time.Second}, // late: the missed times are not run, nor shifted
	} {
		assert.Equal(t, anchor.Add(tc.want), s.Next(anchor, anchor.Add(tc.after)), "after %s", tc.after)
	}
}

// TestScheduleLiteral: a Schedule not decoded (a test's literal) still
// tells its next time.
func TestScheduleLiteral(t *testing.T) {
	s := &Schedule{Cron: "30 * * * *", Timezone: "UTC"}
	at := time.Date(2026, 3, 1, 14, 7, 0, 0, time.UTC)
	assert.Equal(t, time.Date(2026, 3, 1, 14, 30, 0, 0, time.UTC), s.Next(at, at).UTC())
	assert.True(t, (&Schedule{Cron: "nonsense"}).Next(at, at).IsZero())
}

// TestScheduleErrors checks that every mistake in schedule: is an error
// at the file, line and column of the value (or key) at fault.
func TestScheduleErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		yaml string
		want []string
	}{
		{"bad cron", `procs:
  backup:
    kind: task
    command: ./backup.sh
    schedule: {cron: "0 2 * *"}
`, []string{`5:22: procs.backup.schedule.cron: invalid cron expression "0 2 * *": expected exactly 5 fields, found 4: [0 2 * *]: write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 2 * * *", or a descriptor such as @daily`}},
		{"cron field out of range", `procs:
  backup:
    kind: task
    command: ./backup.sh
    schedule:
      cron: "0 25 * * *"
`, []string{`6:13: procs.backup.schedule.cron: invalid cron expression "0 25 * * *": end of range (25) above maximum (23): 25: write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 2 * * *", or a descriptor such as @daily`}},
		{"cron that never comes", `procs:
  backup:
    kind: task
    command: ./backup.sh
    schedule: {cron: "0 0 30 2 *"}
`, []string{`5:22: procs.backup.schedule.cron: cron expression "0 0 30 2 *" never comes (no such date in the next five years): check the day and month`}},
		{"unknown descriptor and @every", `procs:
  a: {kind: task, command: ./a, schedule: {cron: "@fortnightly"}}
  b: {kind: task, command: ./b, schedule: {cron: "@every 5m"}}
`, []string{
			`2:50: procs.a.schedule.cron: invalid cron expression "@fortnightly": unrecognized descriptor: @fortnightly: write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 2 * * *", or a descriptor such as @daily`,
			`3:50: procs.b.schedule.cron: invalid cron expression "@every 5m": @every is not a time of day: write every: (e.g. every: 5m) instead of cron`,
		}},
		{"empty cron", `procs:
  backup: {kind: task, command: ./b, schedule: {cron: ""}}
`, []string{`2:55: procs.backup.schedule.cron: cron is empty: write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 2 * * *", or a descriptor such as @daily`}},
		{"bad timezone", `procs:
  backup:
    kind: task
    command: ./backup.sh
    schedule: {cron: "0 2 * * *", timezone: Mars/Olympus}
  report:
    kind: task
    command: ./report.sh
    schedule: {cron: "0 25 * * *", timezone: Mars/Olympus}
`, []string{
			`5:45: procs.backup.schedule.timezone: unknown timezone "Mars/Olympus": use an IANA name such as UTC, Europe/Paris or America/New_York`,
			`9:22: procs.report.schedule.cron: invalid cron expression "0 25 * * *": end of range (25) above maximum (23): 25: write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 2 * * *", or a descriptor such as @daily`,
			`9:46: procs.report.schedule.timezone: unknown timezone "Mars/Olympus": use an IANA name such as UTC, Europe/Paris or America/New_York`,
		}},
		{"bad CRON_TZ", `procs:
  a: {kind: task, command: ./a, schedule: {cron: "CRON_TZ=Nowhere 0 2 * * *"}}
  b: {kind: task, command: ./b, schedule: {cron: "CRON_TZ=UTC"}}
  c: {kind: task, command: ./c, schedule: {cron: "TZ=UTC 0 2 * * *", timezone: UTC}}
`, []string{
			`2:50: procs.a.schedule.cron: invalid cron expression "CRON_TZ=Nowhere 0 2 * * *": unknown timezone "Nowhere": use an IANA name such as UTC, Europe/Paris or America/New_York`,
			`3:50: procs.b.schedule.cron: invalid cron expression "CRON_TZ=UTC": CRON_TZ=UTC is not followed by an expression: write e.g. "CRON_TZ=UTC 0 2 * * *"`,
			`4:50: procs.c.schedule.cron: invalid cron expression "TZ=UTC 0 2 * * *": the timezone is given twice, as TZ=UTC in cron and as timezone: keep one`,
		}},
		{"every zero, negative, too short, not a duration", `procs:
  a: {kind: task, command: ./a, schedule: {every: 0s}}
  b: {kind: task, command: ./b, schedule: {every: -5m}}
  c: {kind: task, command: ./c, schedule: {every: 10ms}}
  d: {kind: task, command: ./d, schedule: {every: often}}
`, []string{
			`2:51: procs.a.schedule.every: every must be positive, e.g. every: 30m`,
			`3:51: procs.b.schedule.every: "-5m" is negative: use a positive duration`,
			`4:51: procs.c.schedule.every: every 10ms is too short: use at least 1s, e.g. every: 30s`,
			`5:51: procs.d.schedule.every: "often" is not a duration (e.g. 30s)`,
		}},
		{"schedule on a service", `procs:
  api:
    command: ./api
    schedule: {every: 1h}
`, []string{`4:5: procs.api.schedule: schedule is for tasks, and api is a service (it runs until stopped): add kind: task, or remove schedule:`}},
		{"both cron and every, and neither", `procs:
  a:
    kind: task
    command: ./a
    schedule: {cron: "@hourly", every: 1h}
  b:
    kind: task
    command: ./b
    schedule: {runOnStart: true}
`, []string{
			`5:33: procs.a.schedule.every: cron and every both given: keep one (cron for times of day, every for an interval)`,
			`9:5: procs.b.schedule: missing cron or every: say when to run, e.g. cron: "0 2 * * *" or every: 30m`,
		}},
		{"unknown key, timezone with every", `procs:
  a:
    kind: task
    command: ./a
    schedule:
      every: 1h
      timezone: UTC
      runOnStrat: true
`, []string{
			`7:7: procs.a.schedule.timezone: timezone applies to cron times: remove it (every counts from when procs starts)`,
			`8:7: procs.a.schedule.runOnStrat: unknown key "runOnStrat" (did you mean "runOnStart"?)`,
		}},
		{"maxConcurrent", `procs:
  a: {kind: task, command: ./a, schedule: {every: 1h, maxConcurrent: 2}}
  b: {kind: task, command: ./b, schedule: {every: 1h, maxConcurrent: 0}}
`, []string{
			`2:70: procs.a.schedule.maxConcurrent: maxConcurrent 2 is not supported yet: procs runs one run of a process at a time, and skips a scheduled time that comes while the last run goes on; use 1 (the default)`,
			`3:70: procs.b.schedule.maxConcurrent: maxConcurrent 0 is not a number of runs: use 1 (the default)`,
		}},
		{"a string, restart always", `procs:
  a: {kind: task, command: ./a, schedule: "0 2 * * *"}
  b: {kind: task, command: ./b, restart: always, schedule: {every: 1h}}
`, []string{
			`2:43: procs.a.schedule: expected {cron: ...} or {every: ...}, got string "0 2 * * *": write schedule: {cron: "0 2 * * *"} or schedule: {every: 30m}`,
			`3:50: procs.b.schedule: restart: always runs the task again as soon as it ends, so a schedule would add nothing: use restart: on-failure or no`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse("procs.yaml", []byte(tc.yaml), nil)
			require.Error(t, err)
			assert.Nil(t, cfg)
			var errs ConfigErrors
			require.True(t, errors.As(err, &errs), "want ConfigErrors, got %T: %v", err, err)
			got := make([]string, len(errs))
			for i, e := range errs {
				got[i] = fmt.Sprintf("%d:%d: %s: %s", e.Line, e.Col, e.Path, e.Msg)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestScheduleChangeIsNoRestart: a new schedule re-arms the timer; it is
// no reason to run the task now, so the definition is the same.
func TestScheduleChangeIsNoRestart(t *testing.T) {
	parse := func(schedule string) *Config {
		cfg, err := Parse("procs.yaml", []byte("procs:\n  a: {kind: task, command: ./a, schedule: "+schedule+"}\n"), nil)
		require.NoError(t, err)
		return cfg
	}
	d := DiffConfigs(parse("{every: 1h}"), parse(`{cron: "@daily"}`))
	assert.Equal(t, []string{"a"}, d.Unchanged)
	assert.True(t, d.Empty())
}
