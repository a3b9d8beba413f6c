package compose

import (
	"context"
	"errors"
	"fmt"
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
	// permission, when set, is no input: it tells detection about a
	// permission request asked through procs' MCP server, in the order
	// of the input around it.
	permission *permissionNote
	// done receives the outcome of the write; nil when nobody waits.
	done chan error
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

// onLoop runs f on the run loop and waits for it; it fails once the run is
// over, or when ctx ends first: a run in its finish (reading the last of
// its output, waiting for its strays) takes no request for a while, and a
// caller may give up. f may still run after a give-up, so it must not
// write what the caller reads once onLoop has failed.
func (s *supervisor) onLoop(ctx context.Context, f func(*runLoop)) error {
	done := make(chan struct{})
	select {
	case s.loopCh <- func(l *runLoop) { f(l); close(done) }:
	case <-s.done:
		return errNotRunning
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-s.done:
		return errNotRunning
	case <-ctx.Done():
		return ctx.Err()
	}
}
