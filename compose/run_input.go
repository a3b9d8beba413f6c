package compose

import (
	"time"

	"github.com/procsdev/procs/rules"
)

// handleInput is the run loop's side of an input request: tell detection
// (a submit, or keys), then queue the write.
func (l *runLoop) handleInput(req inputRequest) {
	if req.permission != nil {
		l.handle(rules.Event{Kind: rules.EventPermission, Time: time.Now(), Permission: req.permission.ask})
		if req.done != nil {
			req.done <- nil
		}
		return
	}
	if l.s.spec.detect != nil && l.s.spec.detect.AgentProtocol != "" && req.submit {
		l.handle(rules.Event{Kind: rules.EventInput, Time: time.Now(), Input: string(req.data)})
	} else if l.screen != nil {
		switch {
		case req.submit && req.enterAfter:
			l.handle(rules.Event{Kind: rules.EventInput, Time: time.Now(), Input: string(req.data) + "\r"})
		case req.submit:
			l.handle(rules.Event{Kind: rules.EventInput, Time: time.Now(), Input: string(req.data)})
		default:
			l.handle(rules.Event{Kind: rules.EventKeys, Time: time.Now(), Input: string(req.data)})
		}
	}
	l.input().enqueue(req)
}

// input returns the run's input writer, starting it on first use: most
// processes are never sent input, and a writer costs a goroutine and its
// queues for the life of the run.
func (l *runLoop) input() *inputWriter {
	if l.writer == nil {
		l.writer = newInputWriter(l.c)
		go l.writer.run()
	}
	return l.writer
}

// written is where the writer reports finished writes; nil (never ready)
// while the run has no writer.
func (l *runLoop) written() <-chan writeResult {
	if l.writer == nil {
		return nil
	}
	return l.writer.written
}

// handleWritten tells detection when submitted input reached the program.
func (l *runLoop) handleWritten(res writeResult) {
	if res.submit && l.screen != nil {
		l.handle(rules.Event{Kind: rules.EventInputWritten, Time: res.at})
	}
}
