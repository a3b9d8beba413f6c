package systemd

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/procsdev/procs/compose/export"
)

// starBit marks a cron field given as * or ? in robfig/cron's bit sets
// (its unexported starBit): the field restricts nothing.
const starBit = 1 << 63

// weekdays are systemd's names, Monday first as its ranges go; cron
// counts from Sunday (0).
var weekdays = [7]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}

// onCalendar is the OnCalendar= values of a cron schedule, read with
// procs' own parser so that each field means what it means to procs. Any
// set of values is a list in systemd (systemd.time(7), "Calendar
// events"), so every expression procs accepts can be written; what needs
// care is the days: cron runs on a day that matches the day of month OR
// the weekday when both are restricted (neither given as *), where one
// systemd event ANDs them, so that case is two events, which a timer
// ORs (systemd.timer(5): OnCalendar= may be given more than once).
func onCalendar(s *export.Schedule) ([]string, error) {
	spec, err := s.Times()
	if err != nil {
		return nil, err
	}
	clock := field(spec.Hour, 0, 23) + ":" + field(spec.Minute, 0, 59) + ":00"
	month := field(spec.Month, 1, 12)
	zone := ""
	if s.Timezone != "" {
		zone = " " + s.Timezone
	}
	event := func(dow uint64, dom string) string {
		days := weekdayList(dow)
		if days != "" {
			days += " "
		}
		return fmt.Sprintf("%s*-%s-%s %s%s", days, month, dom, clock, zone)
	}
	if spec.Dom&starBit == 0 && spec.Dow&starBit == 0 {
		return []string{event(starBit, field(spec.Dom, 1, 31)), event(spec.Dow, "*")}, nil
	}
	return []string{event(spec.Dow, field(spec.Dom, 1, 31))}, nil
}

// field writes the values of a cron field between low and high as one
// systemd component: * for all, start/step or start..end/step for a
// progression, else a list whose runs are written a..b.
func field(set uint64, low, high int) string {
	values := valuesOf(set, low, high)
	if set&starBit != 0 || len(values) == high-low+1 {
		return "*"
	}
	if step, ok := progression(values); ok {
		last := values[len(values)-1]
		if last+step > high {
			return fmt.Sprintf("%02d/%d", values[0], step)
		}
		return fmt.Sprintf("%02d..%02d/%d", values[0], last, step)
	}
	return runs(values, func(v int) string { return fmt.Sprintf("%02d", v) })
}

// weekdayList writes a cron weekday set as systemd's names (Mon..Fri),
// "" when it holds every day.
func weekdayList(set uint64) string {
	if set&starBit != 0 || bits.OnesCount64(set&0x7f) == 7 {
		return ""
	}
	var days []int
	for i := range weekdays {
		if set&(1<<((i+1)%7)) != 0 { // systemd's day i is cron's i+1, Sunday cron's 0
			days = append(days, i)
		}
	}
	return runs(days, func(i int) string { return weekdays[i] })
}

// valuesOf lists the values of set between low and high, in order.
func valuesOf(set uint64, low, high int) []int {
	var values []int
	for v := low; v <= high; v++ {
		if set&(1<<v) != 0 {
			values = append(values, v)
		}
	}
	return values
}

// progression reports the step of values when they are three or more
// evenly spaced by more than 1.
func progression(values []int) (int, bool) {
	if len(values) < 3 {
		return 0, false
	}
	step := values[1] - values[0]
	for i := 2; i < len(values); i++ {
		if values[i]-values[i-1] != step {
			return 0, false
		}
	}
	return step, step > 1
}

// runs writes sorted values as a list, three or more in a row as a..b.
func runs(values []int, name func(int) string) string {
	var parts []string
	for i := 0; i < len(values); {
		j := i
		for j+1 < len(values) && values[j+1] == values[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			parts = append(parts, name(values[i])+".."+name(values[j]))
		case j > i:
			parts = append(parts, name(values[i]), name(values[j]))
		default:
			parts = append(parts, name(values[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}
