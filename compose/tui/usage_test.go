package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

func percent(p float64) *float64 { return &p }

// measured is a model fed by hand with processes whose usage procs
// measured: worker's two instances use the most CPU together, db the
// most memory, and a stopped task nothing.
func measured(t *testing.T, width int) *Model {
	t.Helper()
	m := New(Options{})
	started := time.Now().Add(-time.Minute)
	m.Update(tea.WindowSizeMsg{Width: width, Height: 30})
	m.Update(connectedMsg{info: control.Info{PID: 42, StartedAt: started}, procs: []wire.ProcStatus{
		{Name: "db", State: rules.StateReady, Run: 1, PID: 10, StartedAt: &started,
			Usage: wire.Usage{CPUPercent: percent(3), MemoryBytes: 900 << 20}},
		{Name: "setup", State: rules.StateCompleted, Run: 1},
		{Name: "web", State: rules.StateReady, Run: 1, PID: 11, StartedAt: &started,
			Usage: wire.Usage{CPUPercent: percent(40), MemoryBytes: 120 << 20}},
		{Name: "worker-1", ReplicaOf: "worker", Replica: 1, State: rules.StateReady, Run: 1, PID: 12, StartedAt: &started,
			Usage: wire.Usage{CPUPercent: percent(30), MemoryBytes: 50 << 20}},
		{Name: "worker-2", ReplicaOf: "worker", Replica: 2, State: rules.StateReady, Run: 1, PID: 13, StartedAt: &started,
			Usage: wire.Usage{CPUPercent: percent(25), MemoryBytes: 50 << 20}},
	}})
	return m
}

// names are the first word of each row of the list (the tree marks of
// instances left out).
func names(m *Model) []string {
	var out []string
	for _, l := range listLines(m) {
		fields := strings.Fields(strings.NewReplacer(">", "", instanceMark, "", lastInstanceMark, "").Replace(l))
		out = append(out, fields[0])
	}
	return out
}

func TestUsageColumns(t *testing.T) {
	m := measured(t, 140)
	titles := strings.Fields(strings.Split(plain(m), "\n")[1])
	assert.Equal(t, []string{"NAME", "STATE", "RUN", "PID", "CPU", "MEM", "PORTS"}, titles[:7])
	assert.Regexp(t, `db +ready +1 +10 +3\.0% +900M `, lineOf(plain(m), "db"))
	assert.Regexp(t, `setup +completed +1 +- +- +- `, lineOf(plain(m), "setup"), "unknown is -, never 0")
	assert.Regexp(t, `worker +ready +55\.0% +100M `, lineOf(plain(m), "worker"), "the header row sums its instances")

	narrow := measured(t, 60)
	titles = strings.Fields(strings.Split(plain(narrow), "\n")[1])
	assert.NotContains(t, titles, "CPU", "a narrow terminal drops the usage columns first")
	assert.Contains(t, titles, "UPTIME")
}

// TestSortKey: o sorts by CPU, then by memory (the instances of a
// replicated process together, by their sum), then back to start order.
func TestSortKey(t *testing.T) {
	m := measured(t, 140)
	assert.Equal(t, []string{"db", "setup", "web", "worker", "worker-1", "worker-2"}, names(m))
	m.Update(keyMsg("o"))
	assert.Equal(t, []string{"worker", "worker-1", "worker-2", "web", "db", "setup"}, names(m))
	assert.Contains(t, strings.Split(plain(m), "\n")[1], "CPU↓")
	assert.Contains(t, plain(m), "sorted by CPU")
	m.Update(keyMsg("o"))
	require.Equal(t, []string{"db", "web", "worker", "worker-1", "worker-2", "setup"}, names(m))
	assert.Contains(t, strings.Split(plain(m), "\n")[1], "MEM↓")
	m.Update(keyMsg("o"))
	assert.Contains(t, plain(m), "sorted by start order")
}
