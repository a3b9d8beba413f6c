package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

func TestAllLogsKeyInterleavesEveryProcess(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	t0 := time.Now()
	line := func(proc, text, stream string, at int) {
		m.Update(eventMsg{Type: wire.EventLine, Proc: proc, Line: text, Stream: stream, Time: t0.Add(time.Duration(at) * time.Millisecond)})
	}
	line("db", "db one", "stdout", 1)
	line("api", "api one", "stdout", 2)
	line("db", "db two", "stderr", 3)
	assert.NotContains(t, plain(m), "api one", "the selected process's log first")

	m.Update(keyMsg("l"))
	s := plain(m)
	assert.Contains(t, s, "── all processes · log (l: db's)")
	var shown []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, " | ") && !strings.HasPrefix(l, "  |") {
			shown = append(shown, strings.TrimRight(l, " "))
		}
	}
	assert.Equal(t, []string{"  db    | db one", "  api   | api one", "! db    | db two"}, shown,
		"in the order procs received them, names padded to the longest (agent)")

	line("api", "api two", "stdout", 4)
	assert.Contains(t, plain(m), "  api   | api two", "a live line shows at once")

	m.Update(keyMsg("l"))
	s = plain(m)
	assert.NotContains(t, s, "api two", "l again: db's log alone")
	assert.Contains(t, s, "! db two")
}

func TestAllLogsMergesTheHistoryReadOnConnect(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	t0 := time.Now().Add(-time.Minute)
	m.Update(eventMsg{Type: wire.EventLine, Proc: "db", Line: "db live", Stream: "stdout", Time: t0.Add(time.Minute)})
	m.Update(historyMsg{name: "api", lines: []control.LogLine{{Proc: "api", Time: t0.Add(2 * time.Second), Stream: "stdout", Line: "api old"}}})
	m.Update(historyMsg{name: "db", lines: []control.LogLine{{Proc: "db", Time: t0.Add(time.Second), Stream: "stdout", Line: "db old"}}})
	m.Update(keyMsg("l"))
	s := plain(m)
	first, second, third := strings.Index(s, "db old"), strings.Index(s, "api old"), strings.Index(s, "db live")
	require.True(t, first >= 0 && second >= 0 && third >= 0, s)
	assert.Less(t, first, second)
	assert.Less(t, second, third)
}

func TestPIDColumn(t *testing.T) {
	m := offline(t, Options{}, 120, 30)
	started := m.now().Add(-95 * time.Second)
	m.Update(listMsg{procs: []wire.ProcStatus{
		{Name: "db", State: rules.StateReady, Run: 1, PID: 4242, StartedAt: &started, Ports: []int{5432}},
		{Name: "api", State: rules.StateStopped, Run: 2, StartedAt: &started, Ports: []int{}},
	}})
	s := plain(m)
	assert.Contains(t, strings.Fields(strings.Split(s, "\n")[1]), "PID")
	assert.Equal(t, []string{"db", "ready", "1", "4242"}, strings.Fields(strings.TrimPrefix(lineOf(s, "db"), ">"))[:4])
	assert.Equal(t, []string{"api", "stopped", "2", "-"}, strings.Fields(lineOf(s, "api"))[:4])
}

func TestUptimeOfAFailedRunThatStillRuns(t *testing.T) {
	m := offline(t, Options{}, 120, 30)
	started := m.now().Add(-95 * time.Second)
	m.Update(listMsg{procs: []wire.ProcStatus{
		{Name: "db", State: rules.StateFailed, Reason: "error-line", Run: 1, PID: 4242, StartedAt: &started, Ports: []int{}},
		{Name: "api", State: rules.StateFailed, Reason: "exited", Run: 1, StartedAt: &started, Ports: []int{}},
	}})
	s := plain(m)
	assert.Contains(t, lineOf(s, "db"), "1m35s", "its pid runs: it has an uptime")
	assert.NotContains(t, lineOf(s, "api"), "1m35s", "its run ended")
}
