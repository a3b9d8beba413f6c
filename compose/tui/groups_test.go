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

// replicated is a model fed by hand with a replicated process, worker
// (replicas: 3), between two others; its third instance comes last, as
// one added by procs scale does.
func replicated(t *testing.T, width, height int) *Model {
	t.Helper()
	m := New(Options{})
	started := time.Now().Add(-90 * time.Second)
	m.now = func() time.Time { return started.Add(95 * time.Second) }
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	instance := func(n int, port int) wire.ProcStatus {
		return wire.ProcStatus{
			Name: "worker-" + string(rune('0'+n)), ReplicaOf: "worker", Replica: n,
			State: rules.StateReady, Run: 1, Restarts: 1, StartedAt: &started, Ports: []int{port},
		}
	}
	m.Update(connectedMsg{info: control.Info{PID: 42, StartedAt: started}, procs: []wire.ProcStatus{
		{Name: "db", State: rules.StateReady, Run: 1, StartedAt: &started, Ports: []int{5432}},
		instance(1, 8001), instance(2, 8002),
		{Name: "api", State: rules.StateStarting, Run: 1, StartedAt: &started},
		instance(3, 8003),
	}})
	return m
}

// listLines are the lines of the process list: the titles' next ones, up
// to the log pane's title.
func listLines(m *Model) []string {
	lines := strings.Split(plain(m), "\n")
	var list []string
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "── ") {
			break
		}
		list = append(list, strings.TrimRight(l, " "))
	}
	return list
}

func TestReplicasShowUnderAHeaderRow(t *testing.T) {
	m := replicated(t, 120, 30)
	list := listLines(m)
	require.Len(t, list, 6, "db, worker's header and its 3 instances, api:\n%s", strings.Join(list, "\n"))
	assert.Equal(t, "db", strings.Fields(list[0])[1])
	header := strings.Fields(list[1])
	assert.Equal(t, []string{"worker", "ready", "-", "-", "8001-8003", "3", "3", "replicas"}, header,
		"name, the instances' one state, no usage measured, their ports, restarts summed, how many")
	assert.Equal(t, "80,8001-8003,9000", portRanges([]int{80, 8001, 8002, 8003, 9000}))
	assert.Regexp(t, `^  ├ worker-1 +ready +1 `, list[2])
	assert.Regexp(t, `^  ├ worker-2 +ready +1 `, list[3])
	assert.Regexp(t, `^  └ worker-3 +ready +1 `, list[4], "an instance listed apart is gathered under its process")
	assert.Equal(t, "api", strings.Fields(list[5])[0])
	assert.Contains(t, strings.Split(plain(m), "\n")[0], "4 ready, 1 starting", "the header counts processes, not header rows")

	m.Update(eventMsg{Type: wire.EventState, Proc: "worker-2", Run: 1, From: rules.StateReady, To: rules.StateStopped, Time: time.Now()})
	assert.Contains(t, listLines(m)[1], "2 ready, 1 stopped", "the header follows its instances' states")
	assert.Regexp(t, `^  ├ worker-2 +stopped`, listLines(m)[3])

	// procs scale worker=1: the list the dashboard asks for next.
	m.Update(listMsg{procs: []wire.ProcStatus{m.procs[0], m.procs[1], m.procs[4]}})
	list = listLines(m)
	require.Len(t, list, 4)
	assert.Equal(t, []string{"worker", "ready", "-", "-", "8001", "1", "1", "replica"}, strings.Fields(list[1]))
	assert.Regexp(t, `^  └ worker-1 +ready`, list[2])
}

func TestSelectionMovesOverInstancesOnly(t *testing.T) {
	m := replicated(t, 120, 30)
	var seen []string
	for range 6 {
		seen = append(seen, m.procs[m.selected].Name)
		m.Update(keyMsg("down"))
	}
	assert.Equal(t, []string{"db", "worker-1", "worker-2", "worker-3", "api", "api"}, seen, "down never stops on the header row")
	for range 4 {
		m.Update(keyMsg("up"))
	}
	assert.Equal(t, "db", m.procs[m.selected].Name, "nor does up")
	assert.Equal(t, "> db", strings.Join(strings.Fields(listLines(m)[0])[:2], " "))

	m.Update(tea.MouseClickMsg{X: 3, Y: m.tableTop + 3, Button: tea.MouseLeft})
	assert.Equal(t, "worker-2", m.procs[m.selected].Name, "a click selects the instance on its row")
	assert.Contains(t, plain(m), "── worker-2 · log")
	m.Update(tea.MouseClickMsg{X: 3, Y: m.tableTop + 1, Button: tea.MouseLeft})
	assert.Equal(t, "worker-1", m.procs[m.selected].Name, "a click on the header row selects its first instance")
	m.Update(tea.MouseClickMsg{X: 3, Y: m.tableTop + 5, Button: tea.MouseLeft})
	assert.Equal(t, "api", m.procs[m.selected].Name)
}

func TestHeaderRowsCountInTheListsHeight(t *testing.T) {
	for _, size := range [][2]int{{120, 30}, {80, 14}, {60, 12}, {40, 10}, {24, 8}} {
		width, height := size[0], size[1]
		m := replicated(t, width, height)
		visible := max(1, min(6, (height-6)/2))
		for step := range 5 {
			lines := strings.Split(plain(m), "\n")
			assert.Len(t, lines, height, "%dx%d, selected %s: the screen is exactly the window's height", width, height, m.procs[m.selected].Name)
			for _, l := range lines {
				assert.LessOrEqual(t, ansi.StringWidth(l), width, "%dx%d: %q", width, height, l)
			}
			list := listLines(m)
			require.Len(t, list, visible, "%dx%d: the list shows its rows, header row included", width, height)
			var selected []string
			for _, l := range list {
				if strings.HasPrefix(l, "> ") {
					selected = append(selected, l)
				}
			}
			require.Len(t, selected, 1, "%dx%d step %d: the selection stays in view:\n%s", width, height, step, strings.Join(list, "\n"))
			m.Update(keyMsg("down"))
		}
		assert.Equal(t, "api", m.procs[m.selected].Name)
		if visible >= 2 {
			list := listLines(m)
			assert.Contains(t, list[len(list)-2], "└ worker-3", "%dx%d: scrolled, the rows above the selection are drawn", width, height)
		}
	}
}
