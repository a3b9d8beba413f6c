package compose

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/rules"
)

// announceAllReady publishes, once per engine, the summary `procs up` prints
// when the whole stack has come up: how long it took and each process's time.
// It runs after every event of the engine: a cursor (readyScan) skips the
// processes already seen up, so that 200 starts do not read 200 states
// on each of their thousand events; one last pass over all of them checks
// that none went down meanwhile.
func (e *Engine) announceAllReady() {
	if e.announcedReady || e.life.ShuttingDown() {
		return
	}
	order := e.life.Order()
	for e.readyScan = min(e.readyScan, len(order)); e.readyScan < len(order); e.readyScan++ {
		if !e.cameUp(order[e.readyScan]) {
			return
		}
	}
	for i, name := range order {
		if !e.cameUp(name) {
			e.readyScan = i
			return
		}
	}
	var ready, completed []string
	for _, name := range order {
		lp := e.life.Proc(name)
		switch {
		case !lp.Wanted():
		case lp.State == rules.StateCompleted:
			completed = append(completed, name)
		default:
			ready = append(ready, fmt.Sprintf("%s %s", name, formatDuration(lp.ReadyAt.Sub(lp.StartedAt))))
		}
	}
	if len(ready)+len(completed) == 0 {
		return
	}
	e.announcedReady = true
	took := formatDuration(time.Since(e.began))
	var msg string
	if len(ready) == 0 {
		msg = fmt.Sprintf("all %d completed in %s: %s", len(completed), took, strings.Join(completed, ", "))
	} else {
		msg = fmt.Sprintf("all %d ready in %s: %s", len(ready)+len(completed), took, strings.Join(ready, ", "))
		if len(completed) > 0 {
			msg += "; completed: " + strings.Join(completed, ", ")
		}
	}
	e.bus.Publish(Event{Type: EventInfo, Time: time.Now(), Reason: rules.ReasonAllReady, Message: msg})
	if e.opts.AllReady != nil {
		e.opts.AllReady()
	}
	// Starting is procs' busiest moment and is over: give its garbage back
	// to the system now, rather than keep it for as long as procs idles
	// (the runtime returns idle memory only slowly by itself).
	debug.FreeOSMemory()
	// The same for the binary's pages its start touched (config, detection,
	// two hundred forks): an idle procs runs on few of them.
	contain.ShedBinaryPages()
}

// cameUp says process name is up as the summary counts it: completed, or
// ready once in its current run (an agent at its first-run dialog,
// awaiting input and never ready, has not come up yet); a process not
// wanted (stopped by request, another profile) does not count.
func (e *Engine) cameUp(name string) bool {
	lp := e.life.Proc(name)
	return !lp.Wanted() || lp.State == rules.StateCompleted ||
		lifecycle.ConditionMet(lp, config.ConditionReady) && lp.Running() && lp.ReadyThisRun()
}
