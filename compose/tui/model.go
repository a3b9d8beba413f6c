package tui

import (
	"errors"
	"os/exec"
	"time"

	"charm.land/bubbles/v2/textinput"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// Options configure the dashboard.
type Options struct {
	// Dir is the project folder whose procs the dashboard shows.
	Dir string
	// Owned says this dashboard started procs (procs up --tui): quitting
	// offers to stop it.
	Owned bool
	// NoColor draws without colours (NO_COLOR, --no-color).
	NoColor bool
	// Attach returns the command that connects the terminal to a PTY
	// process until Ctrl-] (procs attach NAME); nil disables attaching.
	Attach func(name string) *exec.Cmd
}

// mode says what the keys do now.
type mode int

const (
	modeNormal      mode = iota
	modeSearch           // typing a search
	modeInput            // typing a line to send to the selected process
	modeConfirmDown      // x pressed: y stops everything
	modeConfirmQuit      // q pressed on an owned procs: y stops it, n leaves it
	modeHelp             // ? pressed
)

// tickInterval is how often uptimes are redrawn and the list refreshed
// (for ports and pids, which events do not carry).
const tickInterval = time.Second

// tickMsg is the dashboard's clock.
type tickMsg time.Time

// Model is the dashboard: a bubbletea model fed by the event stream of a
// procs and acting through its API.
type Model struct {
	opts   Options
	styles styles
	now    func() time.Time

	client    *control.Client // nil while disconnected
	connected bool
	connErr   string
	info      control.Info

	procs    []wire.ProcStatus
	selected int
	order    listOrder // o cycles it
	logs     map[string]*logBuffer
	all      allLog // every process's lines, interleaved
	allLogs  bool   // the pane shows all, not the selected process
	screens  map[string]string
	// listing and screening say a request is in flight, so a slow procs
	// never gets a pile of them.
	listing, screening bool
	// sinceList are the state events that came while the list was being
	// read, which it may not hold yet (onList).
	sinceList []wire.Event

	width, height int
	tableTop      int // screen row of the first process row, for the mouse
	wrap, follow  bool
	log           viewport.Model
	logFor        string // the process whose lines the viewport holds
	logDirty      bool   // lines came for the pane since it was drawn
	search        string

	mode   mode
	prompt textinput.Model

	status       string   // the last action's outcome
	statusLines  []string // a failure's last lines
	statusFailed bool
	// quitOnEnd makes the dashboard leave once procs has ended (after x or
	// q-and-stop).
	quitOnEnd bool
}

// New returns the dashboard's model, not yet connected.
func New(opts Options) *Model {
	m := &Model{
		opts: opts, styles: newStyles(opts.NoColor), now: time.Now,
		logs: map[string]*logBuffer{}, screens: map[string]string{},
		follow: true, width: 80, height: 24,
		log:    viewport.New(),
		prompt: textinput.New(),
	}
	m.log.HighlightStyle = m.styles.highlight
	m.log.SelectedHighlightStyle = m.styles.current
	m.log.MouseWheelEnabled = true
	return m
}

// Init starts the clock.
func (m *Model) Init() tea.Cmd { return tick() }

func tick() tea.Cmd {
	return tea.Tick(tickInterval, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// Update applies one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyPressMsg:
		return m, m.onKey(msg)
	case tea.MouseClickMsg:
		return m, m.onClick(msg)
	case tea.MouseWheelMsg:
		m.log, _ = m.log.Update(msg)
		m.follow = m.log.AtBottom()
		return m, nil
	case tickMsg:
		return m, tea.Batch(tick(), m.refreshList(), m.refreshScreen())
	case batchMsg:
		cmds := make([]tea.Cmd, 0, len(msg))
		for _, one := range msg {
			cmds = append(cmds, m.onData(one))
		}
		m.flushLog()
		return m, tea.Batch(cmds...)
	}
	cmd := m.onData(msg)
	m.flushLog()
	return m, cmd
}

// flushLog redraws the log pane once for all the lines just added.
func (m *Model) flushLog() {
	if m.logDirty {
		m.logDirty = false
		m.syncLog(false)
	}
}

// onData applies what procs sent or answered.
func (m *Model) onData(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectedMsg:
		m.client, m.connected, m.connErr, m.info = msg.client, true, "", msg.info
		m.setProcs(msg.procs)
		return tea.Batch(m.loadHistory(), m.refreshScreen())
	case disconnectedMsg:
		m.client, m.connected = nil, false
		m.listing, m.screening, m.sinceList = false, false, nil
		switch {
		case errors.Is(msg.err, control.ErrNotRunning):
			m.connErr = "no procs running in this folder"
		case msg.err != nil:
			m.connErr = msg.err.Error()
		}
		if errors.Is(msg.err, errProcsEnded) || errors.Is(msg.err, control.ErrNotRunning) {
			m.endRuns()
		}
		if m.quitOnEnd {
			return tea.Quit
		}
	case eventMsg:
		return m.onEvent(wire.Event(msg))
	case listMsg:
		return m.onList(msg)
	case historyMsg:
		if msg.err == nil {
			m.buffer(msg.name).prependNamed(msg.name, msg.lines)
			m.all.rebuild(m.logs)
			m.syncLog(true)
		}
	case screenMsg:
		m.screening = false
		if msg.err == nil {
			m.screens[msg.name] = msg.text
			m.syncLog(false)
		}
	case actionMsg:
		m.status, m.statusLines, m.statusFailed = msg.text, msg.lines, msg.failed
		m.layout()
		return m.refreshList()
	case attachDoneMsg:
		m.status, m.statusLines, m.statusFailed = "detached from "+msg.name, nil, msg.err != nil
		if msg.err != nil {
			m.status = "attach " + msg.name + ": " + msg.err.Error()
		}
		return tea.Batch(m.refreshList(), m.refreshScreen())
	}
	return nil
}

// onEvent applies one event of the stream.
func (m *Model) onEvent(ev wire.Event) tea.Cmd {
	switch ev.Type {
	case wire.EventLine:
		line := logLine{proc: ev.Proc, run: ev.Run, time: ev.Time, stderr: ev.Stream == "stderr", text: ev.Line}
		if m.buffer(ev.Proc).add(line) {
			m.all.add(line)
		}
		if m.allLogs {
			m.logDirty = true
		} else if cur, ok := m.current(); ok && cur.Name == ev.Proc {
			m.logDirty = true
			if cur.PTY {
				return m.refreshScreen()
			}
		}
	case control.EventDropped:
		m.setStatus(ev.Message, true)
	case wire.EventState:
		m.applyState(ev)
		if m.listing {
			m.sinceList = append(m.sinceList, ev)
		}
		// Pids and ports come with the list, which a state change may alter.
		return m.refreshList()
	}
	return nil
}

// applyState puts a state event in the list. A state in which no process
// runs takes away the pid, ports and usage of the run that ended: procs may
// be gone before a list could say so (procs down).
func (m *Model) applyState(ev wire.Event) {
	for i := range m.procs {
		p := &m.procs[i]
		if p.Name != ev.Proc {
			continue
		}
		if ev.Run > p.Run {
			p.Restarts += boolInt(p.Run > 0)
		}
		p.State, p.Run, p.Reason, p.Message, p.Since = ev.To, ev.Run, ev.Reason, ev.Message, ev.Time
		p.Recoverable = ev.Recoverable
		if ev.To == rules.StateStarting {
			started := ev.Time
			p.StartedAt = &started
		}
		if runsNothing(ev.To) {
			p.PID, p.Ports, p.Usage = 0, nil, wire.Usage{}
		}
	}
}

// endRuns takes away every pid, port, usage and uptime once procs has
// ended: it stops every process before it ends, and the events of the
// last ones may not have reached the dashboard before its stream closed.
// The states stay the last ones heard, under "not connected".
func (m *Model) endRuns() {
	for i := range m.procs {
		p := &m.procs[i]
		p.PID, p.Ports, p.Usage, p.StartedAt = 0, nil, wire.Usage{}, nil
	}
}

// runsNothing says a process in state st has no process running. A failed
// one may still run (an error line, a readiness timeout): procs clears its
// pid when the run ends, and the list says so.
func runsNothing(st rules.State) bool {
	switch st {
	case rules.StatePending, rules.StateBlocked, rules.StateCompleted, rules.StateBackoff, rules.StateStopped:
		return true
	}
	return false
}

// onList puts a list read in place. A state event that came while it was
// read may be newer than what it says (procs answered before the change):
// those events are applied again over it, and the list read once more.
func (m *Model) onList(msg listMsg) tea.Cmd {
	m.listing = false
	newer := m.sinceList
	m.sinceList = nil
	if msg.err == nil {
		m.setProcs(msg.procs)
		for _, ev := range newer {
			m.applyState(ev)
		}
	}
	if len(newer) == 0 {
		return nil
	}
	return m.refreshList()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// setProcs replaces the list, keeping the selection on the same name; the
// instances of a replicated process are gathered under it.
func (m *Model) setProcs(list []wire.ProcStatus) {
	name := ""
	if cur, ok := m.current(); ok {
		name = cur.Name
	}
	m.procs = sortedBy(gatherReplicas(list), m.order)
	m.selected = 0
	for i, p := range m.procs {
		if p.Name == name {
			m.selected = i
		}
	}
	m.layout()
	m.syncLog(false)
}

// current is the selected process.
func (m *Model) current() (wire.ProcStatus, bool) {
	if m.selected < 0 || m.selected >= len(m.procs) {
		return wire.ProcStatus{}, false
	}
	return m.procs[m.selected], true
}

// buffer returns the scrollback of a process, made on first use.
func (m *Model) buffer(name string) *logBuffer {
	b, ok := m.logs[name]
	if !ok {
		b = &logBuffer{}
		m.logs[name] = b
	}
	return b
}
