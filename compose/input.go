package compose

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/rules"
)

// errNotRunning is returned for input to a run that has ended.
var errNotRunning = errors.New("process is not running")

// errInputQueueFull is returned when a program has not read its input for
// so long that inputQueueSize writes wait for it.
var errInputQueueFull = errors.New("input not sent: the process is not reading its input")

// inputQueueSize bounds the writes waiting for one run.
const inputQueueSize = 64

// inputRequest is input for the running process. Everything written to a
// run (procs send, autoRespond answers, idle actions, attached keystrokes,
// the terminal's answers to queries) goes through the run loop in order.
type inputRequest struct {
	data []byte
	// submit marks input ending with Enter sent to be acted on: until the
	// program answers with output, its prompt no longer means idle.
	submit bool
	// enterAfter writes Enter as a write of its own once data is echoed:
	// agent CLIs take text and Enter in one write for a paste, and keep
	// the Enter in their composer.
	enterAfter bool
	// done receives the outcome of the write; nil when nobody waits.
	done chan error
}

// endsWithEnter reports whether text ends with Enter (\r or \n).
func endsWithEnter(text string) bool {
	return strings.HasSuffix(text, "\r") || strings.HasSuffix(text, "\n")
}

// splitEnter returns text without its final Enter, and whether there is
// text before that Enter to write on its own.
func splitEnter(text []byte) ([]byte, bool) {
	if !endsWithEnter(string(text)) {
		return text, false
	}
	body := text[:len(text)-1]
	if len(body) > 0 && body[len(body)-1] == '\r' {
		body = body[:len(body)-1] // \r\n
	}
	return body, len(body) > 0
}

// submitInput hands input to the run loop and waits until it is written, the
// run ends or ctx is done.
func (s *supervisor) submitInput(ctx context.Context, data []byte, submit bool) error {
	return s.submit(ctx, inputRequest{data: data, submit: submit})
}

// submit hands req to the run loop and waits until it is written, the run
// ends or ctx is done.
func (s *supervisor) submit(ctx context.Context, req inputRequest) error {
	req.done = make(chan error, 1)
	select {
	case s.inputCh <- req:
	case <-s.done:
		return errNotRunning
	case <-ctx.Done():
		return fmt.Errorf("send input: %w", ctx.Err())
	}
	select {
	case err := <-req.done:
		return err
	case <-s.done:
		// The loop may have answered just before it ended.
		select {
		case err := <-req.done:
			return err
		default:
			return errNotRunning
		}
	case <-ctx.Done():
		return fmt.Errorf("send input: %w", ctx.Err())
	}
}

// queueInput hands input to the run loop without waiting: for the engine
// goroutine, which must never block on a child. It reports false when the
// queue is full.
func (s *supervisor) queueInput(req inputRequest) bool {
	if !req.enterAfter && req.submit {
		req.data = append(req.data, '\r')
	}
	select {
	case s.inputCh <- req:
		return true
	default:
		return false
	}
}

// inputWriter writes a run's input in order on its own goroutine, so a
// child that does not read never stalls the run loop.
type inputWriter struct {
	child   *contain.Process
	queue   chan inputRequest
	written chan writeResult // to the run loop; never blocks the writer
	ended   chan struct{}
	// echoed is signalled by the run loop when output is read, for a
	// write waiting for the echo of its text before its Enter.
	echoed chan struct{}
	// replies carries the terminal's answers to the program's queries,
	// written ahead of queued input: a line editor (linenoise) asks for
	// the cursor position before it echoes what is typed.
	replies chan []byte
}

// writeResult is a finished write, for the loop to mark submitted input;
// at is when the write began.
type writeResult struct {
	submit bool
	at     time.Time
}

func newInputWriter(c *contain.Process) *inputWriter {
	return &inputWriter{
		child: c, queue: make(chan inputRequest, inputQueueSize),
		written: make(chan writeResult, inputQueueSize+1), ended: make(chan struct{}),
		echoed: make(chan struct{}, 1), replies: make(chan []byte, inputQueueSize),
	}
}

// run writes until the queue is closed.
func (w *inputWriter) run() {
	defer close(w.ended)
	for {
		var req inputRequest
		select {
		case r := <-w.replies:
			_ = w.child.Write(r)
			continue
		case next, ok := <-w.queue:
			if !ok {
				return
			}
			req = next
		}
		// Stamped before the write: the child may answer, and its answer be
		// read, before this goroutine runs again after Write returns.
		at := time.Now()
		err := w.write(req)
		if req.enterAfter && err == nil {
			at, err = w.enter(at)
		}
		w.written <- writeResult{submit: req.submit && err == nil, at: at}
		if req.done != nil {
			req.done <- err
		}
	}
}

// enqueue queues req, failing it at once when the queue is full.
func (w *inputWriter) enqueue(req inputRequest) bool {
	select {
	case w.queue <- req:
		return true
	default:
		if req.done != nil {
			req.done <- errInputQueueFull
		}
		return false
	}
}

// stop ends the writer once the queued writes have been tried; the child's
// streams must be closed first so a blocked write fails.
func (w *inputWriter) stop() {
	close(w.queue)
	for {
		select {
		case <-w.written: // nobody marks input any more
		case <-w.ended:
			return
		}
	}
}

// handleInput is the run loop's side of an input request: tell detection
// (a submit, or keys), then queue the write.
func (l *runLoop) handleInput(req inputRequest) {
	if l.screen != nil {
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

// failPendingInput answers the input requests still queued for a run that
// has ended.
func (s *supervisor) failPendingInput() {
	for {
		select {
		case req := <-s.inputCh:
			if req.done != nil {
				req.done <- errNotRunning
			}
		default:
			return
		}
	}
}

// Input writes text to the process's stdin or terminal and returns once it
// is written. An interactive process that is not ready for input refuses
// text with *NotReadyForInputError unless force is set; keys (Ctrl-C, Esc,
// arrows, Enter alone) are always accepted: they are how a person stops
// or steers a busy program. Text ending with Enter, sent to an interactive
// process, makes it busy until it answers, so a `procs wait --for ready`
// right after waits for the answer, not for the prompt that was already
// there; its Enter is written on its own once the text is echoed.
func (e *Engine) Input(ctx context.Context, name string, text []byte, force bool) error {
	var sup *supervisor
	var submit, interactive bool
	if err := e.onProc(name, func(ps *procState) error {
		switch {
		case ps.sup == nil:
			return fmt.Errorf("%s is not running (state %s)", name, ps.state())
		case ps.interactive() && !force && !lifecycle.AcceptsInput(ps.state()) && !keysOnly(text):
			return &NotReadyForInputError{Name: name, State: ps.state(), Message: ps.life.Message}
		}
		sup, interactive = ps.sup, ps.interactive()
		submit = interactive && endsWithEnter(string(text))
		if submit {
			e.markSubmitted(ps)
		}
		return nil
	}); err != nil {
		return err
	}
	// Written by the run loop's writer: a child that does not read its
	// input never stalls the engine.
	req := inputRequest{data: text, submit: submit}
	if body, ok := splitEnter(text); ok && interactive {
		req.data, req.enterAfter = body, true
	}
	return sup.submit(ctx, req)
}

// keysOnly reports whether input holds no text: only control characters
// and escape sequences (Ctrl-C, Esc, arrows, Enter).
func keysOnly(input []byte) bool {
	rest := terminalControl.ReplaceAll(input, nil)
	return len(strings.Trim(string(rest), "\r\n")) == 0
}

// markSubmitted makes an interactive process that was waiting for input
// busy at once, in the engine, when input with Enter is sent: a `procs wait
// --for ready` issued as soon as the send returns must wait for the answer,
// not see the prompt that was there before. Detection confirms it (same
// state and reason, no second event) and later reports the answer.
func (e *Engine) markSubmitted(ps *procState) {
	e.life.Submitted(ps.cfg.Name)
}
