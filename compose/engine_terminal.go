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
