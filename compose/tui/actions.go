package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// actionTimeout bounds the wait of restart, start and stop, as the CLI's
// default does.
const actionTimeout = 2 * time.Minute

// historyLines is how many recent lines of a process are read on connect.
const historyLines = 1000

type (
	listMsg struct {
		procs []wire.ProcStatus
		err   error
	}
	historyMsg struct {
		name  string
		lines []control.LogLine
		err   error
	}
	screenMsg struct {
		name, text string
		err        error
	}
	// actionMsg is the outcome of an action, shown in the status line.
	actionMsg struct {
		text   string
		lines  []string
		failed bool
	}
	attachDoneMsg struct {
		name string
		err  error
	}
)

// request runs fn against the client with a deadline, in a command, so
// the dashboard never waits for procs.
func (m *Model) request(timeout time.Duration, fn func(ctx context.Context, c *control.Client) tea.Msg) tea.Cmd {
	c := m.client
	if c == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		return fn(ctx, c)
	}
}

// refreshList reads the list again unless a read is in flight.
func (m *Model) refreshList() tea.Cmd {
	if m.client == nil || m.listing {
		return nil
	}
	m.listing = true
	return m.request(requestTimeout, func(ctx context.Context, c *control.Client) tea.Msg {
		list, err := c.ListUsage(ctx)
		return listMsg{procs: list, err: err}
	})
}

// loadHistory reads the recent lines of every process not read yet.
func (m *Model) loadHistory() tea.Cmd {
	var cmds []tea.Cmd
	for _, p := range m.procs {
		if m.buffer(p.Name).loaded {
			continue
		}
		name := p.Name
		cmds = append(cmds, m.request(requestTimeout, func(ctx context.Context, c *control.Client) tea.Msg {
			tail := historyLines
			var lines []control.LogLine
			err := c.Logs(ctx, control.LogsOptions{Procs: []string{name}, Tail: &tail}, func(l control.LogLine) error {
				lines = append(lines, l)
				return nil
			})
			return historyMsg{name: name, lines: lines, err: err}
		}))
	}
	return tea.Batch(cmds...)
}

// refreshScreen reads the screen of the selected process if it runs in a
// terminal.
func (m *Model) refreshScreen() tea.Cmd {
	cur, ok := m.current()
	if !ok || !cur.PTY || cur.State.Terminal() || m.client == nil || m.screening {
		return nil
	}
	m.screening = true
	return m.request(requestTimeout, func(ctx context.Context, c *control.Client) tea.Msg {
		st, err := c.Screen(ctx, cur.Name)
		return screenMsg{name: cur.Name, text: st.Text, err: err}
	})
}

// act runs one of restart, start and stop on a process and reports how
// its wait ended.
func (m *Model) act(verb, name string) tea.Cmd {
	if m.client == nil {
		m.setStatus("not connected to procs", true)
		return nil
	}
	m.setStatus(fmt.Sprintf("%s %s…", verbing(verb), name), false)
	return m.request(actionTimeout+requestTimeout, func(ctx context.Context, c *control.Client) tea.Msg {
		fn := map[string]func(context.Context, string, control.ActionOptions) (rules.Result, error){
			"restart": c.Restart, "start": c.Start, "stop": c.Stop,
		}[verb]
		res, err := fn(ctx, name, control.ActionOptions{Timeout: actionTimeout})
		return resultMsg(verb, name, res, err)
	})
}

// restartAll restarts every service at once and reports them together.
func (m *Model) restartAll() tea.Cmd {
	var names []string
	for _, p := range m.procs {
		if p.Kind != config.KindTask {
			names = append(names, p.Name)
		}
	}
	if m.client == nil || len(names) == 0 {
		return nil
	}
	m.setStatus("restarting every service…", false)
	return m.request(actionTimeout+requestTimeout, func(ctx context.Context, c *control.Client) tea.Msg {
		results := make([]actionMsg, len(names))
		var wg sync.WaitGroup
		for i, name := range names {
			wg.Go(func() {
				res, err := c.Restart(ctx, name, control.ActionOptions{Timeout: actionTimeout})
				results[i] = resultMsg("restart", name, res, err)
			})
		}
		wg.Wait()
		var sum actionMsg
		var texts []string
		for _, r := range results {
			texts = append(texts, r.text)
			if r.failed && !sum.failed {
				sum.failed, sum.lines = true, r.lines
			}
		}
		sum.text = strings.Join(texts, "; ")
		return sum
	})
}

func verbing(verb string) string {
	return map[string]string{"restart": "restarting", "start": "starting", "stop": "stopping"}[verb]
}

// resultMsg says how an action ended: ready in N ms, or why not with the
// last lines.
func resultMsg(verb, name string, res rules.Result, err error) actionMsg {
	if err != nil {
		return actionMsg{text: fmt.Sprintf("%s %s: %v", verb, name, err), failed: true}
	}
	if !res.Success {
		return actionMsg{text: fmt.Sprintf("%s %s (run %d): %s", name, res.State, res.Run, res.Message), lines: res.Logs, failed: true}
	}
	if res.State == rules.StateStopped {
		return actionMsg{text: fmt.Sprintf("%s stopped", name)}
	}
	return actionMsg{text: fmt.Sprintf("%s %s in %dms (run %d)", name, res.State, res.DurationMs, res.Run)}
}

// down asks procs to stop everything; the dashboard leaves once it has.
func (m *Model) down() tea.Cmd {
	m.quitOnEnd = true
	m.setStatus("stopping everything…", false)
	if m.client == nil {
		return tea.Quit
	}
	return m.request(requestTimeout, func(ctx context.Context, c *control.Client) tea.Msg {
		if err := c.Down(ctx); err != nil && !errors.Is(err, wire.ErrShuttingDown) {
			return actionMsg{text: "down: " + err.Error(), failed: true}
		}
		return nil
	})
}

// sendLine writes a line, and Enter, to a process.
func (m *Model) sendLine(name, text string) tea.Cmd {
	return m.request(requestTimeout, func(ctx context.Context, c *control.Client) tea.Msg {
		if err := c.Send(ctx, name, control.InputRequest{Text: text, Enter: true}); err != nil {
			return actionMsg{text: fmt.Sprintf("send to %s: %v", name, err), failed: true}
		}
		return actionMsg{text: fmt.Sprintf("sent to %s: %s", name, text)}
	})
}

// togglePause pauses the onIdle actions of a process, or resumes them.
func (m *Model) togglePause(p wire.ProcStatus) tea.Cmd {
	if p.Idle == nil {
		m.setStatus(p.Name+" has no onIdle actions to pause", true)
		return nil
	}
	resume := p.Idle.Paused
	return m.request(requestTimeout, func(ctx context.Context, c *control.Client) tea.Msg {
		act, verb := c.Pause, "paused"
		if resume {
			act, verb = c.Resume, "resumed"
		}
		if _, err := act(ctx, p.Name); err != nil {
			return actionMsg{text: fmt.Sprintf("%s: %v", p.Name, err), failed: true}
		}
		return actionMsg{text: fmt.Sprintf("onIdle of %s %s", p.Name, verb)}
	})
}

// attach hands the terminal to procs attach until Ctrl-] detaches.
func (m *Model) attach(p wire.ProcStatus) tea.Cmd {
	switch {
	case !p.PTY:
		m.setStatus(p.Name+" does not run in a terminal: use i to send it a line", true)
		return nil
	case p.State.Terminal():
		m.setStatus(p.Name+" is not running", true)
		return nil
	case m.opts.Attach == nil:
		m.setStatus("attaching is not available here", true)
		return nil
	}
	return tea.ExecProcess(m.opts.Attach(p.Name), func(err error) tea.Msg {
		return attachDoneMsg{name: p.Name, err: err}
	})
}

// setStatus shows one line of outcome.
func (m *Model) setStatus(text string, failed bool) {
	m.status, m.statusLines, m.statusFailed = strings.TrimSpace(text), nil, failed
	m.layout()
}
