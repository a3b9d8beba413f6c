package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
)

// paneLines are the lines of the log pane, below its title, without the
// trailing blank rows of a pane not yet full.
func paneLines(m *Model) []string {
	lines := strings.Split(plain(m), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "── ") {
			lines = lines[i+1:]
			break
		}
	}
	var out []string
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimRight(l, " "))
		}
	}
	return out
}

// lineEvent is a line of run of proc, as the event stream brings it.
func lineEvent(proc string, run int, stream, text string, at time.Time) eventMsg {
	return eventMsg{Type: wire.EventLine, Proc: proc, Run: run, Stream: stream, Line: text, Time: at}
}

func TestLogPaneSeparatesRuns(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	t0 := time.Now()
	m.Update(lineEvent("db", 1, "stdout", "db: first run", t0))
	m.Update(lineEvent("db", 2, "stdout", "db: second run", t0.Add(time.Millisecond)))
	m.Update(lineEvent("db", 2, "stderr", "db: a warning", t0.Add(2*time.Millisecond)))
	m.Update(lineEvent("db", 3, "stdout", "db: third run", t0.Add(3*time.Millisecond)))
	// The line procs logs db prints between two runs, and the stderr mark
	// still on the line that came on stderr.
	assert.Equal(t, []string{
		"  db: first run",
		"  ── db run 2 ──",
		"  db: second run",
		"! db: a warning",
		"  ── db run 3 ──",
		"  db: third run",
	}, paneLines(m)[:6])

	// The log of every process: "name | ── run N ──", as procs logs prints it.
	m.Update(lineEvent("api", 2, "stdout", "api: up", t0.Add(4*time.Millisecond)))
	m.Update(keyMsg("l"))
	assert.Equal(t, []string{
		"  db    | db: first run",
		"  db    | ── run 2 ──",
		"  db    | db: second run",
		"! db    | db: a warning",
		"  db    | ── run 3 ──",
		"  db    | db: third run",
		"  api   | api: up",
	}, paneLines(m)[:7])
}

func TestLogPaneSeparatesRunsOfTheHistory(t *testing.T) {
	m := offline(t, Options{}, 100, 30)
	t0 := time.Now()
	m.Update(historyMsg{name: "db", lines: []control.LogLine{
		{Proc: "db", Run: 0, Time: t0, Stream: "stdout", Line: "db: before the kept starts"},
		{Proc: "db", Run: 1, Time: t0.Add(time.Millisecond), Stream: "stdout", Line: "db: run one"},
		{Proc: "db", Run: 2, Time: t0.Add(2 * time.Millisecond), Stream: "stdout", Line: "db: run two"},
	}})
	m.Update(lineEvent("db", 3, "stdout", "db: run three", t0.Add(3*time.Millisecond)))
	lines := paneLines(m)
	require.GreaterOrEqual(t, len(lines), 6)
	// A line of no known run says nothing about where one began.
	assert.Equal(t, []string{
		"  db: before the kept starts",
		"  db: run one",
		"  ── db run 2 ──",
		"  db: run two",
		"  ── db run 3 ──",
		"  db: run three",
	}, lines[:6])
}
