package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

func cpu(p float64) *float64 { return &p }

// TestBusiestFirst: top orders by CPU, then memory; the instances of a
// replicated process stay together, ranked by what they use together, and
// a process that does not run comes last.
func TestBusiestFirst(t *testing.T) {
	list := []compose.ProcStatus{
		{Name: "db", Usage: wire.Usage{CPUPercent: cpu(5), MemoryBytes: 300 << 20}},
		{Name: "worker-1", ReplicaOf: "worker", Usage: wire.Usage{CPUPercent: cpu(30)}},
		{Name: "stopped"},
		{Name: "web", Usage: wire.Usage{CPUPercent: cpu(50)}},
		{Name: "worker-2", ReplicaOf: "worker", Usage: wire.Usage{CPUPercent: cpu(30)}},
		{Name: "cache", Usage: wire.Usage{CPUPercent: cpu(5), MemoryBytes: 900 << 20}},
	}
	var names []string
	for _, st := range busiestFirst(list) {
		names = append(names, st.Name)
	}
	assert.Equal(t, []string{"worker-1", "worker-2", "web", "cache", "db", "stopped"}, names)
}

// TestStatusTableUsage: CPU and MEM columns, "-" when unknown, and the row
// of a replicated process sums its instances.
func TestStatusTableUsage(t *testing.T) {
	var out bytes.Buffer
	writeStatusTable(&out, []compose.ProcStatus{
		{Name: "web", State: rules.StateReady, Run: 1, PID: 42, Usage: wire.Usage{CPUPercent: cpu(99.5), MemoryBytes: 212 << 20}},
		{Name: "worker-1", ReplicaOf: "worker", State: rules.StateReady, Run: 1, PID: 43, Usage: wire.Usage{CPUPercent: cpu(10), MemoryBytes: 600 << 20}},
		{Name: "worker-2", ReplicaOf: "worker", State: rules.StateReady, Run: 1, PID: 44, Usage: wire.Usage{CPUPercent: cpu(2.5), MemoryBytes: 700 << 20}},
		{Name: "task", State: rules.StateCompleted, Run: 1},
	}, 0)
	lines := strings.Split(out.String(), "\n")
	require.GreaterOrEqual(t, len(lines), 6)
	assert.Regexp(t, `^NAME +STATE +RUN +PID +CPU +MEM +PORTS`, lines[0])
	assert.Regexp(t, `^web +ready +1 +42 +99\.5% +212M `, lines[1])
	assert.Regexp(t, `^worker +ready +12\.5% +1\.3G `, lines[2])
	assert.Regexp(t, `^task +completed +1 +- +- +- `, lines[5])
}
