package compose

import "time"

// Enter after text is its own write (procs send --enter): an agent CLI
// (Codex, Gemini CLI) takes text and Enter arriving together for a paste
// and keeps the Enter in its composer. The text is written, its echo
// awaited, and Enter written once the program has had time to see the
// text as typed.
const (
	// enterEchoWait bounds the wait for the echo of the text.
	enterEchoWait = time.Second
	// enterGap is the least time between the text and its Enter: longer
	// than the paste-detection windows of the agent CLIs (about 100 ms).
	enterGap = 150 * time.Millisecond
)

// write writes req's data, first forgetting echoes of earlier writes.
func (w *inputWriter) write(req inputRequest) error {
	if req.enterAfter {
		select {
		case <-w.echoed:
		default:
		}
	}
	return w.child.Write(req.data)
}

// enter waits for the echo of text written at textAt (or enterEchoWait),
// and for enterGap after it, then writes Enter. It returns when the Enter
// write began.
func (w *inputWriter) enter(textAt time.Time) (time.Time, error) {
	echo := time.NewTimer(enterEchoWait)
	defer echo.Stop()
	for waiting := true; waiting; {
		select {
		case <-w.echoed:
			waiting = false
		case <-echo.C:
			waiting = false
		case r := <-w.replies:
			_ = w.child.Write(r)
		}
	}
	if wait := time.Until(textAt.Add(enterGap)); wait > 0 {
		gap := time.NewTimer(wait)
		<-gap.C
	}
	at := time.Now()
	return at, w.child.Write([]byte("\r"))
}

// outputRead tells a writer waiting for an echo that output was read.
func (w *inputWriter) outputRead() {
	select {
	case w.echoed <- struct{}{}:
	default:
	}
}

// reply queues the terminal's answer to a query ahead of input; it
// reports false when too many wait.
func (w *inputWriter) reply(data []byte) bool {
	select {
	case w.replies <- data:
		return true
	default:
		return false
	}
}
