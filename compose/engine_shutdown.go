package compose

import (
	"fmt"
	"time"

	"github.com/procsdev/procs/rules"
)

// Why shutdown began, as Outcome.Ended tells it.
const (
	// EndDown is shutdown asked for by Down (procs down).
	EndDown = "down"
	// EndInterrupted is shutdown after Ctrl-C or SIGTERM (Interrupt).
	EndInterrupted = "interrupted"
)

// Down stops every process in reverse dependency order; Run then returns.
// A second Down kills what is still running.
func (e *Engine) Down() error {
	return e.do(func() { e.life.Down(EndDown) })
}

// Interrupt is Down after Ctrl-C or a signal: the outcome says interrupted.
// A second one kills what is still running. Each says what it does while
// processes are left to stop: a stop may take up to its timeout, and a
// Ctrl-C that shows nothing for that long looks ignored.
func (e *Engine) Interrupt() error {
	return e.do(func() {
		again := e.life.ShuttingDown()
		e.life.Down(EndInterrupted)
		n := e.life.Stopping()
		if n == 0 {
			return
		}
		msg := "stopping " + processCount(n) + " in reverse dependency order (Ctrl-C again to kill at once)"
		if again {
			msg = "killing " + processCount(n) + " (SIGKILL)"
		}
		e.bus.Publish(Event{Type: EventInfo, Time: time.Now(), Reason: rules.ReasonStopped, Message: msg})
	})
}

// processCount says "1 process" or "n processes".
func processCount(n int) string {
	if n == 1 {
		return "1 process"
	}
	return fmt.Sprintf("%d processes", n)
}
