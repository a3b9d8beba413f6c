package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/composetest"
	"github.com/procsdev/procs/compose/control"
)

// testDeadline is the generous bound of every wait in these tests.
const testDeadline = 20 * time.Second

// serveProcs runs a real engine on the config text, served on a real
// socket in dir, until the test ends; stop ends it sooner.
func serveProcs(t *testing.T, dir, yamlText string) (stop func()) {
	t.Helper()
	run := composetest.Start(t, dir, yamlText)
	ctx, cancel := context.WithCancel(context.Background())
	server, err := control.Serve(ctx, run.Engine, dir)
	require.NoError(t, err)
	// As procs up does, the API goes when the engine ends, so clients see
	// procs end.
	go func() {
		<-run.Done()
		cancel()
		_ = server.Close()
	}()
	return func() { run.Stop(t) }
}

// driver runs a Model the way bubbletea does, without a terminal: the feed
// and every command's message go through one channel, and Update applies
// them one at a time on the test's goroutine.
type driver struct {
	t     *testing.T
	m     *Model
	msgs  chan tea.Msg
	done  chan struct{}
	quit  bool
	execs []tea.Cmd
}

// drive connects a model of the given size to the procs of dir.
func drive(t *testing.T, opts Options, width, height int) *driver {
	d := &driver{t: t, m: New(opts), msgs: make(chan tea.Msg), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	f := &feed{dir: opts.Dir, send: d.send}
	fed := make(chan struct{})
	go func() { defer close(fed); f.run(ctx) }()
	t.Cleanup(func() { cancel(); close(d.done); <-fed })
	d.run(d.m.Init())
	d.apply(tea.WindowSizeMsg{Width: width, Height: height})
	return d
}

// send delivers a message unless the test has ended.
func (d *driver) send(msg tea.Msg) {
	select {
	case d.msgs <- msg:
	case <-d.done:
	}
}

// apply updates the model with msg and runs the command it returns.
func (d *driver) apply(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

// run runs a command in the background, as bubbletea does; batches fan out.
func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				d.run(c)
			}
			return
		}
		if msg != nil {
			d.send(msg)
		}
	}()
}

// key presses keys: names as tea.KeyPressMsg.String() gives them, or text.
func (d *driver) key(keys ...string) {
	for _, k := range keys {
		d.apply(keyMsg(k))
	}
}

// keyMsg makes the key press whose String() is k.
func keyMsg(k string) tea.KeyPressMsg {
	special := map[string]rune{"enter": tea.KeyEnter, "esc": tea.KeyEscape, "up": tea.KeyUp, "down": tea.KeyDown,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "backspace": tea.KeyBackspace}
	if code, ok := special[k]; ok {
		return tea.KeyPressMsg{Code: code}
	}
	if k == "ctrl+c" {
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText types each character of s.
func (d *driver) typeText(s string) {
	for _, r := range s {
		d.apply(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screen is what the dashboard shows now, without colours.
func (d *driver) screen() string { return ansi.Strip(d.m.render()) }

// until applies messages until cond holds, failing after testDeadline.
func (d *driver) until(what string, cond func() bool) {
	d.t.Helper()
	deadline := time.After(testDeadline)
	for !cond() {
		select {
		case msg := <-d.msgs:
			if _, ok := msg.(tea.QuitMsg); ok {
				d.quit = true
			}
			d.apply(msg)
		case <-deadline:
			d.t.Fatalf("waiting for %s; the screen:\n%s", what, d.screen())
		}
	}
}

// untilShows waits until the screen holds every text.
func (d *driver) untilShows(texts ...string) {
	d.t.Helper()
	d.until(strings.Join(texts, ", "), func() bool {
		s := d.screen()
		for _, text := range texts {
			if !strings.Contains(s, text) {
				return false
			}
		}
		return true
	})
}

// row is the process list's row of name, as shown.
func (d *driver) row(name string) string {
	for _, line := range strings.Split(d.screen(), "\n") {
		fields := strings.Fields(strings.TrimPrefix(line, ">"))
		if len(fields) > 0 && fields[0] == name {
			return line
		}
	}
	return ""
}

// selectProc presses up or down until name is selected.
func (d *driver) selectProc(name string) {
	d.t.Helper()
	d.until("a list holding "+name, func() bool { return d.row(name) != "" })
	for range len(d.m.procs) {
		d.key("up")
	}
	for i := 0; i < len(d.m.procs) && d.m.procs[d.m.selected].Name != name; i++ {
		d.key("down")
	}
	require.Equal(d.t, name, d.m.procs[d.m.selected].Name)
}

// state is the state shown on name's row.
func (d *driver) state(name string) string {
	if f := strings.Fields(strings.TrimPrefix(d.row(name), ">")); len(f) > 1 {
		return f[1]
	}
	return ""
}

// untilState waits until every name shows state.
func (d *driver) untilState(state string, names ...string) {
	d.t.Helper()
	d.until(strings.Join(names, ", ")+" "+state, func() bool {
		for _, name := range names {
			if d.state(name) != state {
				return false
			}
		}
		return true
	})
}
