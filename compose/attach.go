package compose

import (
	"context"
	"errors"
	"fmt"

	"github.com/creack/pty"
)

// ErrNoTerminal is returned when attaching to a process that does not run
// in a pseudo-terminal.
var ErrNoTerminal = errors.New("process has no terminal")

// attachQueue is how many output chunks an attached terminal may fall
// behind before it is detached: a slow client never slows the child.
const attachQueue = 1024

// attachClient is one terminal attached to a PTY run.
type attachClient struct {
	// out carries the raw output; closed when the run ends, the client
	// detaches or falls too far behind.
	out chan []byte
}

// attachedTerminal is the engine's side of an Attachment: the run loop
// its keystrokes and window sizes go to.
type attachedTerminal struct {
	sup    *supervisor
	client *attachClient
}

// Attach connects a terminal of cols×rows (0: keep the window) to a
// running PTY process.
func (e *Engine) Attach(ctx context.Context, name string, cols, rows int) (*Attachment, error) {
	sup, err := e.terminalOf(name)
	if err != nil {
		return nil, err
	}
	// The loop fills its own copy: a caller that gave up never reads it.
	connected := make(chan *Attachment, 1)
	err = sup.onLoop(ctx, func(l *runLoop) {
		if cols > 0 && rows > 0 {
			l.resize(cols, rows)
		}
		t := &attachedTerminal{sup: sup, client: &attachClient{out: make(chan []byte, attachQueue)}}
		l.clients[t.client] = struct{}{}
		a := &Attachment{Terminal: t}
		a.Screen, a.Output = l.screen.Render(), t.client.out
		connected <- a
	})
	if err != nil {
		return nil, fmt.Errorf("attach %s: %w", name, err)
	}
	return <-connected, nil
}

// Input writes keystrokes to the process, as typed: they never count as a
// submitted prompt and are never refused.
func (t *attachedTerminal) Input(ctx context.Context, data []byte) error {
	return t.sup.submitInput(ctx, data, false)
}

// Resize changes the window of the process's terminal.
func (t *attachedTerminal) Resize(cols, rows int) error {
	if cols <= 0 || rows <= 0 {
		return fmt.Errorf("resize to %dx%d: want a positive size", cols, rows)
	}
	return t.sup.onLoop(context.Background(), func(l *runLoop) { l.resize(cols, rows) })
}

// Close detaches the terminal; the process goes on. The last terminal to
// detach gives the process back its configured window.
func (t *attachedTerminal) Close() {
	_ = t.sup.onLoop(context.Background(), func(l *runLoop) {
		if _, ok := l.clients[t.client]; !ok {
			return
		}
		delete(l.clients, t.client)
		close(t.client.out)
		if len(l.clients) == 0 {
			w := l.s.spec.window
			l.resize(int(w.Cols), int(w.Rows))
		}
	})
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

// fanOut copies output to the attached terminals, detaching any that has
// fallen too far behind.
func (l *runLoop) fanOut(raw []byte) {
	for c := range l.clients {
		select {
		case c.out <- raw:
		default:
			delete(l.clients, c)
			close(c.out)
		}
	}
}

// detachAll ends every attachment when the run ends.
func (l *runLoop) detachAll() {
	for c := range l.clients {
		delete(l.clients, c)
		close(c.out)
	}
}

// resize changes the window of the run's terminal and of its screen.
func (l *runLoop) resize(cols, rows int) {
	if l.screen == nil {
		return
	}
	if c, r := l.screen.Size(); c == cols && r == rows {
		return
	}
	if err := l.c.Resize(cols, rows); err != nil {
		return // the terminal is gone: the run is ending
	}
	l.screen.Resize(cols, rows)
	l.screenDirty = true
}

// window returns the configured window of a PTY process, nil for pipes.
func windowOf(ps *procState) *pty.Winsize {
	if !ps.pty {
		return nil
	}
	cols, rows := windowSize(ps.cfg)
	return &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}
}

// Screen returns what a running PTY process shows now: for a TUI, what a
// person would see, where its log is a jumble of redraws. For a process
// that ended, it is the screen it left, which holds why.
func (e *Engine) Screen(ctx context.Context, name string) (ScreenText, error) {
	var last *ScreenText
	_ = e.onProc(name, func(ps *procState) error {
		if ps.sup == nil && ps.lastScreen != nil {
			last = ps.lastScreen
		}
		return nil
	})
	if last != nil {
		return *last, nil
	}
	sup, err := e.terminalOf(name)
	if err != nil {
		return ScreenText{}, err
	}
	taken := make(chan ScreenText, 1)
	if err := sup.onLoop(ctx, func(l *runLoop) {
		out := ScreenText{Name: name}
		out.Cols, out.Rows = l.screen.Size()
		out.Text = l.screen.Text()
		taken <- out
	}); err != nil {
		return ScreenText{}, fmt.Errorf("screen of %s: %w", name, err)
	}
	return <-taken, nil
}

// terminalOf returns the supervisor of name's running PTY process, or why
// there is none.
func (e *Engine) terminalOf(name string) (*supervisor, error) {
	var sup *supervisor
	err := e.onProc(name, func(ps *procState) error {
		switch {
		case !ps.pty:
			return fmt.Errorf("%w: %s does not run in a terminal; set pty: true", ErrNoTerminal, name)
		case ps.sup == nil:
			return fmt.Errorf("%s is not running (state %s)", name, ps.state())
		}
		sup = ps.sup
		return nil
	})
	return sup, err
}

// lastScreen is the screen a PTY run leaves as it ends; nil for pipes.
func (l *runLoop) lastScreen() *ScreenText {
	if l.screen == nil {
		return nil
	}
	cols, rows := l.screen.Size()
	return &ScreenText{Name: l.s.spec.name, Cols: cols, Rows: rows, Text: l.screen.Text(), Ended: true}
}
