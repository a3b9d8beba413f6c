package config

import (
	"errors"
	"fmt"
	"strings"
	"time"

	// timezone: names an IANA zone, which Windows has no database of:
	// the embedded one (about 450 KB) is used where the system has none.
	_ "time/tzdata"

	"github.com/robfig/cron/v3"
)

// Schedule runs a task on time: at the times of a cron expression, or
// every interval. procs up leaves a scheduled task to its schedule (unless
// runOnStart); procs run and procs start still run it at once.
type Schedule struct {
	Cron          string   `json:"cron,omitempty" jsonschema:"oneof_required=cron" jsonschema_description:"When to run, as a cron expression of 5 fields (minute hour day-of-month month day-of-week), e.g. \"0 2 * * *\" (02:00 every day) or \"*/15 9-17 * * MON-FRI\", or a descriptor: @hourly, @daily, @weekly, @monthly, @yearly. Give cron or every."`
	Timezone      string   `json:"timezone,omitempty" jsonschema_description:"The IANA timezone the cron times are in, e.g. UTC or Europe/Paris (default: the local time of procs). Only with cron."`
	Every         Duration `json:"every,omitempty" jsonschema:"oneof_required=every" jsonschema_description:"Run at this interval, counted from when procs starts (or the schedule is set), e.g. 30m; at least 1s. Give cron or every."`
	RunOnStart    bool     `json:"runOnStart,omitempty" jsonschema_description:"Also run the task when procs up starts, as an unscheduled task runs; by default it waits for its first scheduled time."`
	MaxConcurrent int      `json:"maxConcurrent,omitempty" jsonschema:"minimum=1,maximum=1,default=1" jsonschema_description:"How many runs may go at once: 1 (the only value supported yet), so a time that comes while the last run goes on is skipped."`

	// times is the cron expression parsed, in its timezone; nil for every.
	times cron.Schedule
}

// minEvery is the shortest interval of every: shorter is a typo (a
// process started ten times a second), not a schedule.
const minEvery = time.Second

// cronParser reads the standard 5 fields and the descriptors (@daily).
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// WaitsForSchedule reports whether procs up leaves p to its schedule
// rather than starting it: a scheduled task without runOnStart.
func (p *Proc) WaitsForSchedule() bool { return p.Schedule != nil && !p.Schedule.RunOnStart }

// String says when the schedule runs: "every 30m", "cron 0 2 * * * (UTC)".
func (s *Schedule) String() string {
	if s.Cron == "" {
		return "every " + formatEvery(s.Every.D())
	}
	if s.Timezone != "" {
		return fmt.Sprintf("cron %s (%s)", s.Cron, s.Timezone)
	}
	return "cron " + s.Cron
}

// formatEvery writes an interval without the zero units Go adds (30m, not 30m0s).
func formatEvery(d time.Duration) string {
	text := d.String()
	if strings.HasSuffix(text, "m0s") {
		text = strings.TrimSuffix(text, "0s")
	}
	if strings.HasSuffix(text, "h0m") {
		text = strings.TrimSuffix(text, "0m")
	}
	return text
}

// Next returns the first time after after at which the schedule runs, the
// zero time when it never does. An every schedule counts its intervals
// from anchor (when it was armed), so a late or skipped run does not move
// the next ones; a cron schedule ignores anchor.
func (s *Schedule) Next(anchor, after time.Time) time.Time {
	if s.Cron == "" {
		every := s.Every.D()
		if every <= 0 {
			return time.Time{}
		}
		if after.Before(anchor) {
			return anchor.Add(every)
		}
		return anchor.Add((after.Sub(anchor)/every + 1) * every)
	}
	times := s.times
	if times == nil {
		// A Schedule not decoded from a file (a test's literal): its
		// expression is read here, not stored, as a Config is shared.
		var err error
		if times, err = s.compile(); err != nil {
			return time.Time{}
		}
	}
	return times.Next(after)
}

// compile parses the cron expression in its timezone: timezone:, or a
// CRON_TZ= (or TZ=) prefix, as crontab files and the parser accept.
func (s *Schedule) compile() (cron.Schedule, error) {
	expr := strings.TrimSpace(s.Cron)
	zone := s.Timezone
	if prefix, rest, ok := cutZonePrefix(expr); ok {
		if zone != "" {
			return nil, fmt.Errorf("the timezone is given twice, as %s in cron and as timezone: keep one", prefix)
		}
		if rest == "" {
			return nil, fmt.Errorf("%s is not followed by an expression: write e.g. \"%s 0 2 * * *\"", prefix, prefix)
		}
		zone, expr = prefix[strings.IndexByte(prefix, '=')+1:], rest
	}
	loc := time.Local
	if zone != "" {
		var err error
		if loc, err = loadZone(zone); err != nil {
			return nil, err
		}
	}
	if strings.HasPrefix(expr, "@every") {
		return nil, errors.New("@every is not a time of day: write every: (e.g. every: 5m) instead of cron")
	}
	times, err := cronParser.Parse(expr)
	if err != nil {
		return nil, fmt.Errorf("%v: write 5 fields (minute hour day-of-month month day-of-week), e.g. \"0 2 * * *\", or a descriptor such as @daily", err)
	}
	spec, ok := times.(*cron.SpecSchedule)
	if !ok {
		return nil, fmt.Errorf("not a cron time: write 5 fields, e.g. \"0 2 * * *\"")
	}
	spec.Location = loc
	return spec, nil
}

// cutZonePrefix splits "CRON_TZ=UTC 0 2 * * *" into its prefix and the rest.
func cutZonePrefix(expr string) (prefix, rest string, ok bool) {
	if !strings.HasPrefix(expr, "CRON_TZ=") && !strings.HasPrefix(expr, "TZ=") {
		return "", "", false
	}
	prefix, rest, _ = strings.Cut(expr, " ")
	return prefix, strings.TrimSpace(rest), true
}

// loadZone finds an IANA timezone by name.
func loadZone(name string) (*time.Location, error) {
	loc, err := time.LoadLocation(name)
	if err != nil || strings.TrimSpace(name) == "" {
		return nil, fmt.Errorf("unknown timezone %q: use an IANA name such as UTC, Europe/Paris or America/New_York", name)
	}
	return loc, nil
}

// scheduleKeys are the keys of schedule:.
var scheduleKeys = jsonKeys[Schedule]()

// schedule reads schedule: {cron, timezone} or {every}, with runOnStart
// and maxConcurrent, of process p (whose kind and restart are decoded).
func (d *decoder) schedule(path []string, v any, p *Proc) *Schedule {
	if text, isString := v.(string); isString && !d.origin(path).text {
		d.p.atValue(path, "expected {cron: ...} or {every: ...}, got string %q: write schedule: {cron: %q} or schedule: {every: 30m}", text, text)
		return nil
	}
	m, ok := d.mapping(path, v, scheduleKeys)
	if !ok {
		return nil
	}
	at := func(key string) []string { return child(path, key) }
	s := &Schedule{
		Cron:          d.str(at("cron"), m["cron"]),
		Timezone:      d.str(at("timezone"), m["timezone"]),
		RunOnStart:    d.boolean(at("runOnStart"), m["runOnStart"]),
		MaxConcurrent: d.maxConcurrent(at("maxConcurrent"), m["maxConcurrent"]),
	}
	reported := len(d.p.errs)
	s.Every = d.duration(at("every"), m["every"])
	everyRead := len(d.p.errs) == reported
	if !p.IsTask() {
		d.p.atKey(path, "schedule is for tasks, and %s is a service (it runs until stopped): add kind: task, or remove schedule:", p.Name)
	}
	if p.Restart.Policy == RestartAlways {
		d.p.atKey(path, "restart: always runs the task again as soon as it ends, so a schedule would add nothing: use restart: on-failure or no")
	}
	_, hasCron := m["cron"]
	_, hasEvery := m["every"]
	switch {
	case hasCron && hasEvery:
		d.p.atKey(at("every"), "cron and every both given: keep one (cron for times of day, every for an interval)")
	case !hasCron && !hasEvery:
		d.p.atKey(path, `missing cron or every: say when to run, e.g. cron: "0 2 * * *" or every: 30m`)
	case hasEvery:
		switch {
		case everyRead && s.Every == 0:
			d.p.atValue(at("every"), "every must be positive, e.g. every: 30m")
		case everyRead && s.Every.D() < minEvery:
			d.p.atValue(at("every"), "every %s is too short: use at least %s, e.g. every: 30s", s.Every, minEvery)
			s.Every = 0
		}
		if _, hasZone := m["timezone"]; hasZone {
			d.p.atKey(at("timezone"), "timezone applies to cron times: remove it (every counts from when procs starts)")
		}
	default:
		d.checkCron(path, m, s)
	}
	return s
}

// checkCron parses the cron expression, reporting the parser's reason at
// the value, and a timezone procs does not know at its own.
func (d *decoder) checkCron(path []string, m map[string]any, s *Schedule) {
	cronPath := child(path, "cron")
	if strings.TrimSpace(s.Cron) == "" {
		if _, isString := m["cron"].(string); isString || m["cron"] == nil {
			d.p.atValue(cronPath, `cron is empty: write 5 fields (minute hour day-of-month month day-of-week), e.g. "0 2 * * *", or a descriptor such as @daily`)
		}
		return
	}
	expr := *s
	if s.Timezone != "" {
		if _, err := loadZone(s.Timezone); err != nil {
			d.p.atValue(child(path, "timezone"), "%v", err)
			expr.Timezone = "" // the expression may be wrong too: say so now
		}
	}
	times, err := expr.compile()
	if err != nil {
		d.p.atValue(cronPath, "invalid cron expression %q: %v", s.Cron, err)
		return
	}
	if times.Next(time.Now()).IsZero() {
		d.p.atValue(cronPath, "cron expression %q never comes (no such date in the next five years): check the day and month", s.Cron)
		return
	}
	if expr.Timezone == s.Timezone {
		s.times = times
	}
}

// maxConcurrent reads how many runs may go at once: 1, for now.
func (d *decoder) maxConcurrent(path []string, v any) int {
	n, ok := d.integer(path, v, "a number of runs")
	switch {
	case !ok:
		return 0
	case n < 1:
		d.p.atValue(path, "maxConcurrent %d is not a number of runs: use 1 (the default)", n)
		return 0
	case n > 1:
		d.p.atValue(path, "maxConcurrent %d is not supported yet: procs runs one run of a process at a time, and skips a scheduled time that comes while the last run goes on; use 1 (the default)", n)
		return 0
	}
	return n
}
