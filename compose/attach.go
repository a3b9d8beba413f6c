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

// Attachment is a terminal connected to a PTY process (procs attach): it
// gets the current screen, then the raw output, and sends keystrokes and
// window sizes. Closing it leaves the process running.
type Attachment struct {
	// Screen redraws what the process shows now; write it to the terminal
	// before Output.
	Screen []byte
	// Output carries the process's output from the moment Screen was taken;
	// it is closed when the run ends or the terminal falls too far behind.
	Output <-chan []byte

	sup    *supervisor
	client *attachClient
}

// Attach connects a terminal of cols×rows (0: keep the window) to a
// running PTY process.
func (e *Engine) Attach(name string, cols, rows int) (*Attachment, error) {
	sup, err := e.terminalOf(name)
	if err != nil {
		return nil, err
	}
	a := &Attachment{sup: sup}
	err = sup.onLoop(func(l *runLoop) {
		if cols > 0 && rows > 0 {
			l.resize(cols, rows)
		}
		a.client = &attachClient{out: make(chan []byte, attachQueue)}
		l.clients[a.client] = struct{}{}
		a.Screen, a.Output = l.screen.Render(), a.client.out
	})
	if err != nil {
		return nil, fmt.Errorf("attach %s: %w", name, err)
	}
	return a, nil
}

// Input writes keystrokes to the process, as typed: they never count as a
// submitted prompt and are never refused.
func (a *Attachment) Input(ctx context.Context, data []byte) error {
	return a.sup.submitInput(ctx, data, false)
}

// Resize changes the window of the process's terminal.
func (a *Attachment) Resize(cols, rows int) error {
	if cols <= 0 || rows <= 0 {
		return fmt.Errorf("resize to %dx%d: want a positive size", cols, rows)
	}
	return a.sup.onLoop(func(l *runLoop) { l.resize(cols, rows) })
}

// Close detaches the terminal; the process goes on. The last terminal to
// detach gives the process back its configured window.
func (a *Attachment) Close() {
	_ = a.sup.onLoop(func(l *runLoop) {
		if _, ok := l.clients[a.client]; !ok {
			return
		}
		delete(l.clients, a.client)
		close(a.client.out)
		if len(l.clients) == 0 {
			w := l.s.spec.window
			l.resize(int(w.Cols), int(w.Rows))
		}
	})
}

// onLoop runs f on the run loop and waits for it; it fails once the run is
// over.
func (s *supervisor) onLoop(f func(*runLoop)) error {
	done := make(chan struct{})
	select {
	case s.loopCh <- func(l *runLoop) { f(l); close(done) }:
	case <-s.done:
		return errNotRunning
	}
	select {
	case <-done:
		return nil
	case <-s.done:
		return errNotRunning
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

// ScreenText is what a PTY process shows now.
type ScreenText struct {
	Name string `json:"name"`
	Cols int    `json:"cols"`
	Rows int    `json:"rows"`
	// Text is the screen's rows, without the blank rows at the bottom.
	Text string `json:"text"`
	// Ended marks the last screen of a process that is no longer running.
	Ended bool `json:"ended,omitempty"`
}

// Screen returns what a running PTY process shows now: for a TUI, what a
// person would see, where its log is a jumble of redraws. For a process
// that ended, it is the screen it left, which holds why.
func (e *Engine) Screen(name string) (ScreenText, error) {
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
	out := ScreenText{Name: name}
	if err := sup.onLoop(func(l *runLoop) {
		out.Cols, out.Rows = l.screen.Size()
		out.Text = l.screen.Text()
	}); err != nil {
		return ScreenText{}, fmt.Errorf("screen of %s: %w", name, err)
	}
	return out, nil
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
			return fmt.Errorf("%s is not running (state %s)", name, ps.state)
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
