package compose

import (
	"time"

	"github.com/procsdev/procs/compose/contain"
)

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
