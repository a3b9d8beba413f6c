package compose

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
// A second one kills what is still running.
func (e *Engine) Interrupt() error {
	return e.do(func() { e.life.Down(EndInterrupted) })
}
