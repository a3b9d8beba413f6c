package systemd

import (
	"fmt"
	"strings"

	"github.com/procsdev/procs/compose/export"
)

// timerFile is the file of proc's timer, beside its service:
// PROJECT-NAME.timer, or the template PROJECT-NAME@.timer, whose instance
// NAME@i.timer starts NAME@i.service (a timer starts the service of its
// own name unless told otherwise, systemd.timer(5) Unit=).
func timerFile(p *export.Project, proc *export.Process) string {
	return strings.TrimSuffix(unitFile(p, proc), ".service") + ".timer"
}

// timerNames are the timers that run proc: its own, or one per instance.
func timerNames(p *export.Project, proc *export.Process) []string {
	names := unitNames(p, proc)
	for i, name := range names {
		names[i] = strings.TrimSuffix(name, ".service") + ".timer"
	}
	return names
}

// timer is the unit that starts a scheduled task on its schedule, or a
// warning saying why there is none. It has no Persistent=true: procs
// does not run a time it missed while it was down (config.Schedule), and
// a persistent timer would run it at the next boot. AccuracySec=1s keeps
// systemd from moving a run by up to a minute (its default), as procs
// runs it on time.
func timer(p *export.Project, proc *export.Process) (*unit, *export.Warning) {
	s := proc.Schedule
	u := &unit{}
	unitSection := u.section("Unit")
	unitSection.set("Description", escapeSpecifiers(fmt.Sprintf("%s %s: on its schedule (%s)", p.Name, proc.Name, s.Spec)))
	unitSection.set("PartOf", targetName(p))
	t := u.section("Timer")
	if s.Cron == "" {
		// procs counts the intervals from its start; systemd from the
		// timer's start, then from each run's start.
		t.comment("Every %s from the start of the timer, then from each run's start.", s.Spec[len("every "):])
		t.set("OnActiveSec", export.Duration(s.Every))
		t.set("OnUnitActiveSec", export.Duration(s.Every))
	} else {
		events, err := onCalendar(s)
		if err != nil {
			return nil, &export.Warning{Proc: proc.Name, Text: fmt.Sprintf(
				"its schedule (%s) could not be written as OnCalendar= (%v): no timer is exported, so it never runs; write %s yourself", s.Spec, err, timerFile(p, proc))}
		}
		t.comment("%s, in procs' words. procs runs no time missed while it was down: no Persistent=.", s.Spec)
		for _, event := range events {
			t.set("OnCalendar", escapeSpecifiers(event))
		}
	}
	t.set("AccuracySec", "1s")
	return u, nil
}
