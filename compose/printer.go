package compose

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/fatih/color"

	"github.com/procsdev/procs/internal/statedir"

	"github.com/procsdev/procs/rules"
)

// Printer writes events to a terminal as `name | line`, with names padded
// and coloured, and state changes on lines of their own.
type Printer struct {
	w     *bufio.Writer
	width int
	plain bool
	// prefixes are the rendered `name | ` of each process (colour codes
	// included), made once instead of formatted for every line; colors
	// are the colours of the names, in the order they were told.
	prefixes map[string][]byte
	colors   map[string]*color.Color
	// notePrefix starts procs' own lines, labelled own.
	notePrefix []byte
	own        string
	procsCo    *color.Color
	// spare is the slice of the last events printed, given back to the
	// subscription to queue the next ones in.
	spare []Event
	// logPath names the log file of a process, for the note about lines
	// not shown.
	logPath func(name string) string
	// held are the lines of errors that made ready processes unhealthy,
	// not printed yet; wake is armed for the first of them.
	held map[string]heldState
	wake *time.Timer
}

// heldState is the line of a process made unhealthy by an error, held
// until the error's burst has been quiet for rules.FailureQuiet. Its
// first line rarely says what is wrong ("Traceback (most recent call
// last):"); detection quotes a better one as the burst goes on (the
// SyntaxError at its end), and that one line, the last, is printed once,
// below the error, as a failure's is.
type heldState struct {
	text string
	due  time.Time
}

// ownLabel labels procs' own lines; ownLabelBeside does when a process
// is named procs, whose lines would otherwise look like procs' own.
const (
	ownLabel       = "procs"
	ownLabelBeside = "(procs)"
)

// palette is the sequence of name colours.
var palette = []color.Attribute{color.FgCyan, color.FgYellow, color.FgGreen, color.FgMagenta, color.FgBlue, color.FgHiCyan, color.FgHiYellow, color.FgHiGreen, color.FgHiMagenta, color.FgHiBlue}

// NewPrinter prepares a printer for the given process names. With plain,
// no colour codes are written (NO_COLOR, --no-color, or not a terminal);
// colours the children write themselves are kept either way.
func NewPrinter(w io.Writer, names []string, plain bool) *Printer {
	p := &Printer{w: bufio.NewWriterSize(w, 64<<10), own: ownLabel, prefixes: map[string][]byte{}, colors: map[string]*color.Color{}, plain: plain}
	if slices.Contains(names, ownLabel) {
		p.own = ownLabelBeside
	}
	p.width = len(p.own)
	for _, name := range names {
		p.width = max(p.width, len(name))
	}
	p.procsCo = p.color(color.Bold)
	p.logPath = func(name string) string { return filepath.Join(statedir.Name, "logs", name+".log") }
	p.notePrefix = p.render(p.procsCo, p.own)
	for _, name := range names {
		p.addName(name)
	}
	return p
}

// addName gives a process the next colour and its prefix. A process a
// reload added may have a name longer than any before: every prefix
// widens from then on, so the lines that follow line up again (those
// printed already cannot).
func (p *Printer) addName(name string) []byte {
	p.colors[name] = p.color(palette[len(p.colors)%len(palette)])
	if name == ownLabel && p.own == ownLabel {
		// A process named procs, added by a reload: procs' own lines
		// take the other label from now on.
		p.own = ownLabelBeside
		p.width = max(p.width, len(p.own))
		p.notePrefix = p.render(p.procsCo, p.own)
	}
	if len(name) > p.width {
		p.width = len(name)
		p.notePrefix = p.render(p.procsCo, p.own)
		for other, c := range p.colors {
			p.prefixes[other] = p.render(c, other)
		}
	}
	p.prefixes[name] = p.render(p.colors[name], name)
	return p.prefixes[name]
}

// SetLogPaths tells the printer where the log file of each process is
// (Engine.LogPath), for the note about lines it could not show; paths
// under the current folder are shown relative to it.
func (p *Printer) SetLogPaths(logPath func(name string) string) {
	wd, _ := os.Getwd()
	p.logPath = func(name string) string {
		path := logPath(name)
		if rel, err := filepath.Rel(wd, path); err == nil && wd != "" && !strings.HasPrefix(rel, "..") {
			return rel
		}
		return path
	}
}

// render is the prefix of name's lines in colour c.
func (p *Printer) render(c *color.Color, name string) []byte {
	return []byte(c.Sprintf("%-*s | ", p.width, name))
}

func (p *Printer) color(attr color.Attribute) *color.Color {
	c := color.New(attr)
	if p.plain {
		c.DisableColor()
	} else {
		c.EnableColor()
	}
	return c
}

// Run prints events from sub until stop is closed, then prints what is
// still queued and returns.
func (p *Printer) Run(sub *Subscription, stop <-chan struct{}) {
	for {
		select {
		case <-sub.Ready():
			p.print(sub.NextReusing(p.spare))
		case now := <-p.wakeC():
			p.printHeld(now)
		case <-stop:
			p.print(sub.NextReusing(p.spare))
			p.printHeld(time.Time{})
			return
		}
	}
}

// hold keeps name's unhealthy line until the error's burst is quiet,
// replacing the one held before (the same error, better explained).
func (p *Printer) hold(name, text string) {
	if p.held == nil {
		p.held = make(map[string]heldState)
	}
	p.held[name] = heldState{text: text, due: time.Now().Add(rules.FailureQuiet)}
	p.armWake()
}

// printHeld prints the held lines due by now; all of them when now is
// zero (the printer is stopping).
func (p *Printer) printHeld(now time.Time) {
	for _, name := range slices.Sorted(maps.Keys(p.held)) {
		if h := p.held[name]; now.IsZero() || !now.Before(h.due) {
			p.note(h.text)
			delete(p.held, name)
		}
	}
	p.armWake()
	_ = p.w.Flush()
}

// release prints name's held line, if any, before news of name that
// follows it (a recovery, an exit).
func (p *Printer) release(name string) {
	if h, ok := p.held[name]; ok {
		p.note(h.text)
		delete(p.held, name)
	}
}

// armWake sets the wake timer to the first held line's due time.
func (p *Printer) armWake() {
	if len(p.held) == 0 {
		if p.wake != nil {
			p.wake.Stop()
		}
		return
	}
	first := time.Time{}
	for _, h := range p.held {
		if first.IsZero() || h.due.Before(first) {
			first = h.due
		}
	}
	if p.wake == nil {
		p.wake = time.NewTimer(time.Until(first))
		return
	}
	p.wake.Reset(time.Until(first))
}

// wakeC is the channel of the wake timer, nil while nothing is held.
func (p *Printer) wakeC() <-chan time.Time {
	if len(p.held) == 0 || p.wake == nil {
		return nil
	}
	return p.wake.C
}

func (p *Printer) print(events []Event, dropped map[string]int) {
	// The queue is bounded (maxQueuedBytes), and so is what the spare keeps.
	p.spare = events
	p.noteDropped(dropped)
	for _, ev := range events {
		switch ev.Type {
		case EventLine:
			p.prefix(ev.Proc)
			// A terminal's output moves the cursor all the time; a pipe's
			// seldom, but some reporters do it there too (Gatsby erases
			// the line above each of its own). Among other processes'
			// lines, only colours are kept.
			if ev.Stream == "pty" || bytes.IndexByte(ev.Raw, ansi.ESC) >= 0 {
				p.w.Write(keepColors(ev.Raw))
			} else {
				p.w.Write(ev.Raw)
			}
			if !p.plain && bytes.Contains(ev.Raw, colorIntro) {
				p.w.WriteString("\x1b[0m") // a child's colour must not bleed into the next line
			}
			p.w.WriteByte('\n')
		case EventState:
			text := StateText(ev)
			if ev.To == rules.StateUnhealthy && ev.Reason == rules.ReasonError {
				p.hold(ev.Proc, text)
				break
			}
			p.release(ev.Proc)
			if text != "" {
				p.note(text)
			}
		case EventInfo:
			if ev.Proc == "" {
				p.note(ev.Message)
			} else {
				p.note(fmt.Sprintf("%s: %s", ev.Proc, ev.Message))
			}
		}
	}
	_ = p.w.Flush()
}

// colorIntro starts the escape sequences a child colours its output with.
var colorIntro = []byte("\x1b[")

func (p *Printer) prefix(name string) {
	prefix, ok := p.prefixes[name]
	if !ok {
		prefix = p.addName(name) // a process added by a reload
	}
	p.w.Write(prefix)
}

// noteDropped says, per process, how many lines the terminal could not
// keep up with, and in which file they are.
func (p *Printer) noteDropped(dropped map[string]int) {
	for _, name := range slices.Sorted(maps.Keys(dropped)) {
		lines := "lines"
		if dropped[name] == 1 {
			lines = "line"
		}
		p.note(fmt.Sprintf("%d %s of %s not shown (output too fast for this terminal); all are in %s", dropped[name], lines, name, p.logPath(name)))
	}
}

func (p *Printer) note(text string) {
	p.w.Write(p.notePrefix)
	p.w.WriteString(text)
	p.w.WriteByte('\n')
}

// StateText describes a state change for people ("api ready in 412ms
// (matched ...)"), or "" for changes not worth a line.
func StateText(ev Event) string {
	name := ev.Proc
	switch ev.To {
	case rules.StateStarting:
		if ev.Run > 1 {
			return fmt.Sprintf("%s starting (run %d)", name, ev.Run)
		}
		return fmt.Sprintf("%s starting", name)
	case rules.StateReady:
		switch ev.From {
		case rules.StateBusy, rules.StateAwaitingInput, rules.StateAwaitingPermission, rules.StateFailed, rules.StateUnhealthy:
			// An agent back at its prompt, a server recovered from an
			// error: its start-up time is old news.
			return fmt.Sprintf("%s ready (%s)", name, ev.Message)
		}
		took := formatDuration(time.Duration(ev.DurationMs) * time.Millisecond)
		if ev.Message == "" {
			return fmt.Sprintf("%s ready in %s", name, took)
		}
		return fmt.Sprintf("%s ready in %s (%s)", name, took, ev.Message)
	case rules.StatePending:
		if ev.Reason == rules.ReasonRestart {
			return fmt.Sprintf("%s restarting", name)
		}
		return ""
	case rules.StateStopping:
		return ""
	case rules.StateBlocked:
		if ev.From == rules.StateBlocked {
			return "" // the blocking dependency's news has its own line
		}
	}
	if rest, ok := strings.CutPrefix(ev.Message, string(ev.To)+" "); ok {
		return fmt.Sprintf("%s %s %s", name, ev.To, rest) // "web stopped on request (...)"
	}
	if ev.Message != "" {
		return fmt.Sprintf("%s %s: %s", name, ev.To, ev.Message)
	}
	return fmt.Sprintf("%s %s", name, ev.To)
}

// formatDuration rounds a duration for people.
func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	default:
		return d.Round(10 * time.Millisecond).String()
	}
}
