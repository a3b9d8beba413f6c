package export

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/procsdev/procs/compose/config"
)

// Schedule is when a scheduled task runs, as procs reads its schedule:
// the cron expression and its timezone apart (a CRON_TZ= prefix moved to
// Timezone), or the interval.
type Schedule struct {
	// Cron is the expression of 5 fields or the descriptor (@daily), ""
	// for an every schedule.
	Cron string
	// Timezone is the IANA zone of the cron times, "" for the local time
	// of the machine.
	Timezone string
	// Every is the interval of an every schedule, counted from the start.
	Every time.Duration
	// RunOnStart runs the task also when the project starts.
	RunOnStart bool
	// Spec is procs' own words for it ("cron 0 2 * * * (UTC)"), for
	// warnings.
	Spec string
}

// cronParser reads cron expressions as procs does (compose/config): the
// standard 5 fields and the descriptors.
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// scheduleOf is the export's form of a schedule:, nil without one.
func scheduleOf(s *config.Schedule) *Schedule {
	if s == nil {
		return nil
	}
	out := &Schedule{Every: s.Every.D(), RunOnStart: s.RunOnStart, Spec: s.String()}
	if s.Cron == "" {
		return out
	}
	out.Cron, out.Timezone = strings.TrimSpace(s.Cron), s.Timezone
	for _, prefix := range []string{"CRON_TZ=", "TZ="} {
		if zone, rest, ok := strings.Cut(out.Cron, " "); ok && strings.HasPrefix(zone, prefix) {
			out.Timezone, out.Cron = strings.TrimPrefix(zone, prefix), strings.TrimSpace(rest)
		}
	}
	return out
}

// Times is the cron expression parsed as procs parses it: bit sets of the
// minutes, hours, days, months and weekdays it runs at, a field given as
// * (or ?) marked. An every schedule has none.
func (s *Schedule) Times() (*cron.SpecSchedule, error) {
	if s.Cron == "" {
		return nil, fmt.Errorf("%s is not a cron schedule", s.Spec)
	}
	parsed, err := cronParser.Parse(s.Cron)
	if err != nil {
		return nil, fmt.Errorf("cron %q: %w", s.Cron, err)
	}
	spec, ok := parsed.(*cron.SpecSchedule)
	if !ok {
		return nil, fmt.Errorf("cron %q is not a time of day", s.Cron)
	}
	return spec, nil
}

// RunsAtStart reports whether the project's start runs proc: any process
// but a task left to its schedule, which runs at start only with
// runOnStart or when an exported process depends on it (procs up starts
// a dependency whatever its schedule).
func (p *Project) RunsAtStart(proc *Process) bool {
	if proc.Schedule == nil || proc.Schedule.RunOnStart {
		return true
	}
	for _, other := range p.Procs {
		for _, dep := range other.DependsOn {
			if dep.Name == proc.Name {
				return true
			}
		}
	}
	return false
}

// scheduledRoots are the scheduled tasks procs up arms with the profiles
// in active: not disabled, of an active profile (compose.armableSchedules).
func scheduledRoots(cfg *config.Config, active []string) []string {
	var names []string
	for _, name := range cfg.Names() {
		if p := cfg.Procs[name]; p.Schedule != nil && !p.Disabled && p.ActiveIn(active) {
			names = append(names, name)
		}
	}
	return names
}
