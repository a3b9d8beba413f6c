package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// progress is what `procs up -d --wait` shows on a terminal: one line per
// process, in start order, saying what it waits for and then how it ended.
// When the block fits the terminal it is redrawn in place; else each new
// text is printed as a line of its own. Only its owner's goroutine uses it.
type progress struct {
	out   io.Writer
	names []string
	deps  map[string][]string
	text  map[string]string
	// state is each process's last known state.
	state map[string]rules.State
	// done marks the processes whose result is in: events no longer
	// change their line.
	done map[string]bool
	// width bounds a line, so that none wraps and the redraw stays aligned.
	width   int
	inPlace bool
	// drawn is how many lines of the block are on the screen.
	drawn int
}

// newProgress shows the processes of list that procs will run (stopped
// ones are not waited for) on a terminal of width × height.
func newProgress(out io.Writer, list []compose.ProcStatus, width, height int) *progress {
	p := &progress{out: out, deps: map[string][]string{}, text: map[string]string{}, state: map[string]rules.State{},
		done: map[string]bool{}, width: width}
	for _, st := range list {
		if st.State == rules.StateStopped {
			continue
		}
		p.names = append(p.names, st.Name)
		p.deps[st.Name] = st.DependsOn
		p.state[st.Name] = st.State
		p.text[st.Name] = p.stateText(st.Name, st.State, st.Message)
	}
	p.inPlace = width >= 20 && height > len(p.names)
	if !p.inPlace {
		for _, name := range p.names {
			if p.text[name] != "" { // ready already: its result comes next
				p.line(p.text[name])
			}
		}
	}
	p.draw()
	return p
}

// stateText is the line of a process in state, before its result; "" for
// a state whose result says more (ready, completed).
func (p *progress) stateText(name string, state rules.State, message string) string {
	switch state {
	case rules.StatePending, "":
		if len(p.deps[name]) > 0 {
			return fmt.Sprintf("waiting for %s (after %s)…", name, strings.Join(p.deps[name], ", "))
		}
		return fmt.Sprintf("waiting for %s…", name)
	case rules.StateStarting, rules.StateStopping:
		return fmt.Sprintf("waiting for %s…", name)
	case rules.StateReady, rules.StateCompleted:
		return "" // its result, with what decided it, comes next
	}
	if message != "" {
		return fmt.Sprintf("%s %s: %s", name, state, message)
	}
	return fmt.Sprintf("%s %s", name, state)
}

// event updates the line of a process whose state changed.
func (p *progress) event(ev compose.Event) {
	if ev.Type != compose.EventState || p.done[ev.Proc] {
		return
	}
	if _, ok := p.text[ev.Proc]; !ok {
		return
	}
	p.state[ev.Proc] = ev.To
	if text := p.stateText(ev.Proc, ev.To, ev.Message); text != "" {
		p.set(ev.Proc, text)
	}
}

// result shows how the wait for a process ended; a failure's last lines
// come after the block (see finish).
func (p *progress) result(res rules.Result) {
	p.done[res.Name] = true
	if res.Success {
		p.set(res.Name, fmt.Sprintf("%s %s (run %d, %dms): %s", res.Name, res.State, res.Run, res.DurationMs, res.Message))
		return
	}
	p.set(res.Name, fmt.Sprintf("%s %s (run %d): %s", res.Name, res.State, res.Run, res.Message))
}

// finish ends the block when the wait ended before every result was in:
// each process left shows its state in final (procs' list once the wait
// ended, nil if it could not be read), and one still on its way says the
// wait stopped, and why.
func (p *progress) finish(final []compose.ProcStatus, why string) {
	messages := map[string]string{}
	for _, st := range final {
		p.state[st.Name], messages[st.Name] = st.State, st.Message
	}
	for _, name := range p.names {
		if p.done[name] {
			continue
		}
		p.done[name] = true
		switch state := p.state[name]; state {
		case rules.StatePending, rules.StateStarting, rules.StateStopping, "":
			p.set(name, fmt.Sprintf("%s not ready yet (%s)", name, why))
		case rules.StateReady, rules.StateCompleted:
			p.set(name, fmt.Sprintf("%s %s", name, state))
		default:
			p.set(name, p.stateText(name, state, messages[name]))
		}
	}
}

func (p *progress) set(name, text string) {
	if p.text[name] == text {
		return
	}
	p.text[name] = text
	if p.inPlace {
		p.draw()
		return
	}
	p.line(text)
}

// line prints one line below the others (when the block does not fit).
func (p *progress) line(text string) {
	fmt.Fprintln(p.out, p.fit(text))
}

// draw writes the block again over the one on the screen.
func (p *progress) draw() {
	if !p.inPlace {
		return
	}
	var b strings.Builder
	if p.drawn > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", p.drawn)
	}
	for _, name := range p.names {
		b.WriteString("\r\x1b[2K")
		b.WriteString(p.fit(p.text[name]))
		b.WriteString("\n")
	}
	p.drawn = len(p.names)
	_, _ = io.WriteString(p.out, b.String())
}

// fit cuts text to the terminal's width, less one column, so that the
// cursor never wraps to a line the redraw does not know about.
func (p *progress) fit(text string) string {
	if p.width <= 1 {
		return text
	}
	return ansi.Truncate(text, p.width-1, "…")
}

// terminalSize is the size of the terminal on standard output, or 0×0.
func (a *app) terminalSize() (width, height int) {
	f, ok := a.stdout.(*os.File)
	if !ok {
		return 0, 0
	}
	width, height, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0, 0
	}
	return width, height
}

// waitShowingProgress is waitAllReady on a terminal: the block of lines
// follows each process's state (from procs' event stream) until its
// result is in; a failure's last lines are printed below the block. It
// reports whether a process failed and the error that ended the wait.
func (a *app) waitShowingProgress(ctx context.Context, c *control.Client, wait time.Duration) (failed bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel() // first: every goroutine below ends with ctx
	events := subscribeStates(ctx, c, &wg)
	list, err := c.List(ctx)
	if err != nil {
		return false, err
	}
	width, height := a.terminalSize()
	prog := newProgress(a.stdout, list, width, height)
	results := make(chan rules.Result)
	waited := make(chan error, 1)
	wg.Go(func() {
		waited <- c.WaitAll(ctx, wait, func(_ int, res rules.Result) bool {
			select {
			case results <- res:
				return res.Success
			case <-ctx.Done():
				return false
			}
		})
	})
	var failures []rules.Result
	// waited always answers, ctx or not: WaitAll ends when ctx does.
	for {
		select {
		case ev := <-events:
			prog.event(ev)
		case res := <-results:
			prog.result(res)
			if !res.Success {
				failures = append(failures, res)
			}
		case err := <-waited:
			var final []compose.ProcStatus // what became of the processes not waited for to the end
			if len(failures) > 0 && err == nil {
				var rest []placedResult
				rest, final = settledAfterFailure(ctx, c, wait, prog.done)
				for _, r := range rest {
					prog.result(r.res)
					if !r.res.Success {
						failures = append(failures, r.res)
					}
				}
				// Answers come as they are decided: the lines under the
				// block follow start order, as the block does.
				slices.SortStableFunc(failures, func(x, y rules.Result) int {
					return slices.Index(prog.names, x.Name) - slices.Index(prog.names, y.Name)
				})
			} else {
				final, _ = c.List(ctx)
			}
			prog.finish(final, stopReason(failures, err))
			a.printFailureLines(failures)
			return len(failures) > 0, err
		}
	}
}

// subscribeStates follows procs' state events on a goroutine of wg, which
// ends with ctx, and returns once subscribed, so that a list read next
// misses no change. A stream that fails leaves the channel silent: the
// lines then follow the results alone.
func subscribeStates(ctx context.Context, c *control.Client, wg *sync.WaitGroup) <-chan compose.Event {
	events := make(chan compose.Event)
	// Two slots: the stream's opening, then its end, each sent once
	// whether or not anyone reads.
	opened := make(chan error, 2)
	wg.Go(func() {
		opened <- c.Events(ctx, control.EventsOptions{After: -1, OnOpen: func() error { opened <- nil; return nil }},
			func(ev compose.Event) error {
				select {
				case events <- ev:
					return nil
				case <-ctx.Done():
					return ctx.Err()
				}
			})
	})
	select {
	case <-opened:
	case <-ctx.Done():
	}
	return events
}

// stopReason says why the wait ended before every process was ready.
func stopReason(failures []rules.Result, err error) string {
	switch {
	case len(failures) > 0:
		return stoppedBy(failures)
	case err != nil:
		return "stopped waiting"
	}
	return "not waited for"
}

// printFailureLines prints the last lines of each failed process, which
// the block's one line per process has no room for.
func (a *app) printFailureLines(failures []rules.Result) {
	for _, res := range failures {
		if len(res.Logs) == 0 {
			continue
		}
		fmt.Fprintf(a.stderr, "last lines of %s:\n", res.Name)
		for _, line := range res.Logs {
			fmt.Fprintf(a.stderr, "  | %s\n", line)
		}
	}
}
