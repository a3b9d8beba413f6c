package compose

import (
	"fmt"
	"slices"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// wallClockCheck is the longest a cron timer sleeps before the wall clock
// is read again. Go's timers count time the machine is awake; a laptop
// asleep across 02:00 would otherwise run the 02:00 task hours late.
const wallClockCheck = time.Minute

// lateLimit is how late a scheduled time may be run: later, the machine
// (or procs) was asleep when it came, and it is skipped as missed rather
// than run at an hour nobody chose.
const lateLimit = 2 * wallClockCheck

// scheduleState is the timer of one scheduled task, and what status shows
// of it. Only the engine goroutine touches it.
type scheduleState struct {
	name string
	cfg  *config.Schedule
	// anchor is when the schedule was armed: every counts from it.
	anchor time.Time
	// next is the time the timer is for; zero when it has none.
	next time.Time
	// timer fires at next (or sooner, to read the wall clock); gen tells
	// a callback that was already queued when it was superseded.
	timer *time.Timer
	gen   int
	// last is how the last run ended, whatever started it.
	last            *wire.ScheduledRun
	skipped, missed int
}

// disarm forgets the pending timer.
func (sc *scheduleState) disarm() {
	sc.gen++
	if sc.timer != nil {
		sc.timer.Stop()
		sc.timer = nil
	}
}

func (sc *scheduleState) status() *wire.ScheduleStatus {
	st := &wire.ScheduleStatus{Spec: sc.cfg.String(), LastRun: sc.last, Skipped: sc.skipped, Missed: sc.missed}
	if !sc.next.IsZero() {
		next := sc.next.Round(0) // the wall clock only: it crosses the API
		st.NextRun = &next
	}
	return st
}

// syncSchedules arms the timer of each scheduled task of the config run
// now, re-arms those whose schedule changed, and cancels those of tasks
// removed, disabled or left without a schedule, and all of them once
// shutdown begins. It runs as Run begins and after each reconcile, which
// says so (announce) of each schedule it arms. It returns the tasks it
// armed, in start order.
func (e *Engine) syncSchedules(announce bool) (armed []string) {
	if e.schedules == nil {
		e.schedules = map[string]*scheduleState{}
	}
	armable := e.armableSchedules()
	for name, sc := range e.schedules {
		if p := armable[name]; p == nil || p.Schedule.String() != sc.cfg.String() {
			sc.disarm()
			delete(e.schedules, name)
			if p == nil {
				e.life.Scheduled(name, "", false)
				if ps := e.procs[name]; ps != nil && announce && !e.life.ShuttingDown() {
					e.infoOf(ps, rules.ReasonScheduled, "schedule removed: no more scheduled runs")
				}
			}
		}
	}
	now := time.Now()
	for _, name := range e.life.Order() {
		p := armable[name]
		if p == nil || e.schedules[name] != nil {
			continue
		}
		sc := &scheduleState{name: name, cfg: p.Schedule, anchor: now}
		e.schedules[name] = sc
		armed = append(armed, name)
		e.life.Scheduled(name, p.Schedule.String(), true)
		e.armSchedule(sc, now)
		if ps := e.procs[name]; ps != nil && announce {
			e.infoOf(ps, rules.ReasonScheduled, "schedule set: "+sc.cfg.String()+"; next run at "+clockTime(sc.next))
		}
	}
	return armed
}

// armableSchedules are the scheduled tasks whose timers run: those procs
// up schedules (the machine's rule: not disabled, of an active profile,
// profiles activated on the running procs included), named to procs up
// NAME... (or brought along as a dependency) when names were given; none
// once shutdown begins.
func (e *Engine) armableSchedules() map[string]*config.Proc {
	out := map[string]*config.Proc{}
	if e.life.ShuttingDown() {
		return out
	}
	var only []string
	if len(e.opts.Only) > 0 {
		only, _ = e.cfg.WithDependencies(e.opts.Only...)
	}
	for name, p := range e.cfg.Procs {
		if !e.life.UpSchedules(p) {
			continue
		}
		if len(e.opts.Only) > 0 && !slices.Contains(only, name) {
			continue
		}
		out[name] = p
	}
	return out
}

// disarmSchedules stops every timer: Run has ended.
func (e *Engine) disarmSchedules() {
	for _, sc := range e.schedules {
		sc.disarm()
	}
}

// armSchedule sets the timer of sc for the first time of its schedule
// after now.
func (e *Engine) armSchedule(sc *scheduleState, now time.Time) {
	sc.disarm()
	sc.next = sc.cfg.Next(sc.anchor, now)
	if sc.next.IsZero() {
		return // a cron date that never comes: procs check refuses it
	}
	wait := sc.next.Sub(now)
	if sc.cfg.Cron != "" {
		wait = min(wait, wallClockCheck)
	}
	gen := sc.gen
	sc.timer = time.AfterFunc(wait, func() {
		e.post(func() { e.scheduleFired(sc, gen) })
	})
}

// scheduleFired runs the task whose time has come, through the same path
// as procs start: unless a run is still under way (then the time is
// skipped) or the time passed long ago (missed: procs or the machine was
// asleep). The next time is the first one after now, so a slow run or a
// sleep never causes a burst of runs.
func (e *Engine) scheduleFired(sc *scheduleState, gen int) {
	if sc.gen != gen || e.schedules[sc.name] != sc || e.life.ShuttingDown() {
		return
	}
	sc.timer = nil
	now, due := time.Now(), sc.next
	if now.Before(due) {
		e.armSchedule(sc, now) // a cron timer woke to read the wall clock
		return
	}
	e.armSchedule(sc, now)
	ps := e.procs[sc.name]
	lp := ps.life
	next := "; next run at " + clockTime(sc.next)
	switch {
	case now.Sub(due) > lateLimit:
		sc.missed++
		e.infoOf(ps, rules.ReasonScheduled, fmt.Sprintf("missed the run due at %s (procs or the machine was asleep)%s", clockTime(due), next))
	case lp.Busy():
		sc.skipped++
		e.infoOf(ps, rules.ReasonScheduled, fmt.Sprintf("skipped the run due at %s: %s%s", clockTime(due), runUnderWay(lp), next))
	default:
		run, err := e.life.Start(sc.name)
		if err != nil {
			e.infoOf(ps, rules.ReasonScheduled, fmt.Sprintf("cannot start the run due at %s: %v%s", clockTime(due), err, next))
			return
		}
		e.act() // its transitions come first, as those of procs start do
		e.publishInfo(sc.name, run, rules.ReasonScheduled, fmt.Sprintf("run %d started, due at %s%s", run, clockTime(due), next))
	}
}

// runUnderWay says which run of a busy process is under way, and where.
func runUnderWay(lp *lifecycle.Proc) string {
	switch {
	case lp.InBackoff():
		return fmt.Sprintf("run %d failed and waits to be restarted (backoff)", lp.Run)
	case !lp.Running() && (lp.State == rules.StatePending || lp.State == rules.StateBlocked):
		return fmt.Sprintf("run %d still waits for its dependencies (%s)", lp.Run+1, lp.State)
	}
	return fmt.Sprintf("run %d still running (%s)", lp.Run, lp.State)
}

// scheduleOnState keeps how the last run of a scheduled task ended, from
// the transition t that ended it.
func (e *Engine) scheduleOnState(t lifecycle.Transition) {
	sc, ps := e.schedules[t.Name], e.procs[t.Name]
	if sc == nil || ps == nil || t.Run == 0 || ps.running() {
		return
	}
	switch t.To {
	case rules.StateCompleted, rules.StateFailed, rules.StateStopped:
	default:
		return
	}
	last := &wire.ScheduledRun{Run: t.Run, State: t.To, EndedAt: t.Time}
	if code := ps.life.ExitCode; code != nil {
		c := *code
		last.ExitCode = &c
	}
	sc.last = last
}

// scheduleStatus is the schedule of ps as status shows it, nil without one.
func (e *Engine) scheduleStatus(ps *procState) *wire.ScheduleStatus {
	if sc := e.schedules[ps.cfg.Name]; sc != nil {
		return sc.status()
	}
	return nil
}

// clockTime is a time as messages give it: 14:05:00, with the date when
// it is not today.
func clockTime(t time.Time) string {
	now := time.Now()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04:05")
}
