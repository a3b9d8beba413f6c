package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// offline is a model fed by hand: a procs of three processes, no client.
func offline(t *testing.T, opts Options, width, height int) *Model {
	t.Helper()
	m := New(opts)
	started := time.Now().Add(-90 * time.Second)
	m.now = func() time.Time { return started.Add(95 * time.Second) }
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	m.Update(connectedMsg{info: control.Info{PID: 42, StartedAt: started}, procs: []wire.ProcStatus{
		{Name: "db", State: rules.StateReady, Run: 1, StartedAt: &started, Ports: []int{5432}, Reason: "ready", Message: "accepting connections"},
		{Name: "api", State: rules.StateStarting, Run: 2, Restarts: 1, StartedAt: &started, Ports: []int{}},
		{Name: "agent", State: rules.StateBusy, Run: 1, PTY: true, StartedAt: &started},
	}})
	return m
}

func plain(m *Model) string { return ansi.Strip(m.render()) }

func TestStateEventsUpdateTheList(t *testing.T) {
	m := offline(t, Options{}, 120, 30)
	assert.Contains(t, plain(m), "1 ready, 1 starting, 1 busy")
	m.Update(eventMsg{Type: wire.EventState, Proc: "api", Run: 2, From: rules.StateStarting, To: rules.StateFailed,
		Reason: "exited", Message: "exit code 3", Time: time.Now()})
	assert.Contains(t, plain(m), "api   failed")
	assert.Contains(t, plain(m), "exited: exit code 3")
	m.Update(eventMsg{Type: wire.EventState, Proc: "api", Run: 3, From: rules.StateFailed, To: rules.StateStarting, Time: time.Now()})
	row := lineOf(plain(m), "api")
	assert.Equal(t, []string{"api", "starting", "3"}, strings.Fields(row)[:3])
	assert.Contains(t, row, " 2 ", "a new run counts as a restart")
}

func TestLineEventsFillTheSelectedLog(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	m.Update(eventMsg{Type: wire.EventLine, Proc: "db", Line: "db: checkpoint", Stream: "stdout", Time: time.Now()})
	m.Update(eventMsg{Type: wire.EventLine, Proc: "db", Line: "db: disk almost full", Stream: "stderr", Time: time.Now()})
	m.Update(eventMsg{Type: wire.EventLine, Proc: "api", Line: "api: not shown", Stream: "stdout", Time: time.Now()})
	s := plain(m)
	assert.Contains(t, s, "  db: checkpoint")
	assert.Contains(t, s, "! db: disk almost full")
	assert.NotContains(t, s, "api: not shown")
	m.Update(keyMsg("down"))
	assert.Contains(t, plain(m), "api: not shown")
}

func TestHeaderCountsAndUptime(t *testing.T) {
	m := offline(t, Options{}, 120, 30)
	header := strings.Split(plain(m), "\n")[0]
	assert.Contains(t, header, "up 1m35s")
	assert.Contains(t, header, "pid 42")
	m.Update(disconnectedMsg{err: control.ErrNotRunning})
	assert.Contains(t, strings.Split(plain(m), "\n")[0], "not connected (no procs running in this folder); retrying…")
}

func TestNoColorDrawsNoColours(t *testing.T) {
	m := offline(t, Options{NoColor: true}, 120, 30)
	out := m.render()
	assert.NotRegexp(t, `\x1b\[[0-9;]*3[0-9]m|\x1b\[[0-9;]*4[0-9]m|38;5|48;5`, out)
	colour := offline(t, Options{}, 120, 30).render()
	assert.Contains(t, colour, "\x1b[32mready", "in colour, ready is green")
}

func TestNarrowTerminalHidesColumns(t *testing.T) {
	for _, width := range []int{120, 79, 60, 40, 24} {
		m := offline(t, Options{}, width, 30)
		s := plain(m)
		for _, line := range strings.Split(s, "\n") {
			assert.LessOrEqual(t, ansi.StringWidth(line), width, "width %d: %q", width, line)
		}
		titles := strings.Fields(strings.Split(s, "\n")[1])
		assert.Equal(t, []string{"NAME", "STATE"}, titles[:2], "width %d", width)
		if width >= 80 {
			assert.Contains(t, titles, "REASON")
		}
		if width < 60 {
			assert.NotContains(t, titles, "RESTARTS", "width %d", width)
		}
		assert.Len(t, strings.Split(s, "\n"), 30, "width %d: the screen is exactly the window's height", width)
	}
}

func TestResizeKeepsTheScreenToTheWindow(t *testing.T) {
	m := offline(t, Options{}, 120, 30)
	m.Update(keyMsg("down"))
	m.Update(keyMsg("down"))
	m.Update(screenMsg{name: "agent", text: ""})
	assert.Len(t, strings.Split(plain(m), "\n"), 30, "an empty pane keeps its height")
	m.Update(keyMsg("up"))
	for _, size := range [][2]int{{80, 10}, {200, 50}, {50, 20}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(plain(m), "\n")
		assert.Len(t, lines, size[1])
		for _, l := range lines {
			assert.LessOrEqual(t, ansi.StringWidth(l), size[0])
		}
	}
}

func TestWrapKeyTogglesWrapping(t *testing.T) {
	m := offline(t, Options{}, 60, 20)
	long := strings.Repeat("word ", 30)
	m.Update(eventMsg{Type: wire.EventLine, Proc: "db", Line: long, Stream: "stdout", Time: time.Now()})
	assert.NotContains(t, plain(m), "wrap")
	m.Update(keyMsg("w"))
	assert.Contains(t, plain(m), " · wrap")
	assert.GreaterOrEqual(t, strings.Count(plain(m), "word word"), 3, "the long line spans rows")
	m.Update(keyMsg("w"))
	assert.NotContains(t, plain(m), " · wrap")
}

func TestScrollKeysLeaveAndResumeFollowing(t *testing.T) {
	m := offline(t, Options{}, 80, 20)
	for i := range 100 {
		m.Update(eventMsg{Type: wire.EventLine, Proc: "db", Line: "line " + string(rune('a'+i%26)), Stream: "stdout"})
	}
	assert.Contains(t, plain(m), "following")
	m.Update(keyMsg("pgup"))
	assert.NotContains(t, plain(m), "following")
	m.Update(keyMsg("G"))
	assert.Contains(t, plain(m), "following")
}

func TestHelpKey(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	m.Update(keyMsg("?"))
	assert.Contains(t, plain(m), "Ctrl-] detaches")
	m.Update(keyMsg("j"))
	assert.NotContains(t, plain(m), "Ctrl-] detaches", "any key closes the help")
	assert.Equal(t, "db", m.procs[m.selected].Name, "and does nothing else")
}

func TestMouseClickSelects(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	m.Update(tea.MouseClickMsg{X: 3, Y: m.tableTop + 2, Button: tea.MouseLeft})
	assert.Equal(t, "agent", m.procs[m.selected].Name)
	m.Update(tea.MouseClickMsg{X: 3, Y: m.tableTop + 1, Button: tea.MouseLeft})
	assert.Equal(t, "api", m.procs[m.selected].Name)
	m.Update(tea.MouseClickMsg{X: 3, Y: 0, Button: tea.MouseLeft})
	assert.Equal(t, "api", m.procs[m.selected].Name, "the header selects nothing")
}

func TestPTYProcessShowsItsScreen(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	m.Update(keyMsg("down"))
	m.Update(keyMsg("down"))
	m.Update(screenMsg{name: "agent", text: "fake agent\n\n\n\n\n> hello\n● done: hello\n\n\n\n"})
	s := plain(m)
	assert.Contains(t, s, "agent · screen (a attaches)")
	var rows []string
	for _, l := range strings.Split(s, "\n") {
		rows = append(rows, strings.TrimRight(l, " "))
	}
	joined := strings.Join(rows, "\n")
	assert.Contains(t, joined, "attaches) · following ──\nfake agent\n\n> hello\n● done: hello\n\n", "runs of blank rows are squeezed")
}

func TestKeysThatNeedAProcessSaySoWhenTheyCannot(t *testing.T) {
	m := offline(t, Options{}, 120, 30)
	_, cmd := m.Update(keyMsg("a"))
	assert.Nil(t, cmd)
	assert.Contains(t, plain(m), "db does not run in a terminal")
	_, cmd = m.Update(keyMsg("p"))
	assert.Nil(t, cmd)
	assert.Contains(t, plain(m), "db has no onIdle actions to pause")
	m.Update(keyMsg("down"))
	m.Update(keyMsg("down"))
	_, cmd = m.Update(keyMsg("a"))
	assert.Nil(t, cmd)
	assert.Contains(t, plain(m), "attaching is not available here")
	_, cmd = m.Update(keyMsg("r"))
	assert.Nil(t, cmd)
	assert.Contains(t, plain(m), "not connected to procs")
}

func TestSearchPromptTypesAndCancels(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	for _, l := range []string{"alpha", "beta", "Alphabet"} {
		m.Update(eventMsg{Type: wire.EventLine, Proc: "db", Line: l, Stream: "stdout"})
	}
	m.Update(keyMsg("/"))
	for _, r := range "alp" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	assert.Contains(t, plain(m), "/alp")
	assert.Contains(t, plain(m), "/alp: 2 matches", "matches show while typing")
	m.Update(keyMsg("esc"))
	assert.Contains(t, plain(m), "/alp: 2 matches", "esc leaves the prompt, keeps the search")
	m.Update(keyMsg("esc"))
	assert.NotContains(t, plain(m), "matches", "a second esc clears it")
}

func TestQuitWhileDisconnectedNeverAsks(t *testing.T) {
	m := offline(t, Options{Owned: true}, 100, 30)
	m.Update(disconnectedMsg{})
	_, cmd := m.Update(keyMsg("q"))
	require.NotNil(t, cmd)
	assert.IsType(t, quitMsg(), cmd())
}

// lineOf is the first line of s whose first field is name.
func lineOf(s, name string) string {
	for _, line := range strings.Split(s, "\n") {
		if f := strings.Fields(strings.TrimPrefix(line, ">")); len(f) > 0 && f[0] == name {
			return line
		}
	}
	return ""
}
