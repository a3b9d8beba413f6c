package compose

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/rules"
)

// announceAllReady publishes, once per engine, the summary `procs up` prints
// when the whole stack has come up: how long it took and each process's time.
func (e *Engine) announceAllReady() {
	if e.announcedReady || e.life.ShuttingDown() {
		return
	}
	var ready, completed []string
	for _, name := range e.life.Order() {
		lp := e.life.Proc(name)
		if !lp.Wanted() {
			continue
		}
		switch {
		case lp.State == rules.StateCompleted:
			completed = append(completed, name)
		case lifecycle.ConditionMet(lp, config.ConditionReady) && lp.Running() && lp.ReadyThisRun():
			// Ready once in this run: an agent at its first-run dialog
			// (awaiting-input, never ready) has not come up yet.
			took := lp.ReadyAt.Sub(lp.StartedAt)
			ready = append(ready, fmt.Sprintf("%s %s", name, formatDuration(took)))
		default:
			return
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
	// Starting is procs' busiest moment and is over: give its garbage back
	// to the system now, rather than keep it for as long as procs idles
	// (the runtime returns idle memory only slowly by itself).
	debug.FreeOSMemory()
}
