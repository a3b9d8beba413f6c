package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// longReason is wider than the old fixed cut of the LAST column.
var longReason = "error line \"FATAL: could not bind IPv4 address 127.0.0.1: Address already in use, is another postmaster running on port 5433?\""

func statusTable(t *testing.T, width int) []string {
	t.Helper()
	var out bytes.Buffer
	a := newApp(nil, &out, nil, nil)
	a.printStatusTable([]compose.ProcStatus{
		{Name: "db", State: rules.StateFailed, Run: 1, Message: longReason},
		{Name: "web", State: rules.StateReady, Run: 2, PID: 4242, Ports: []int{5173}},
	}, width)
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// TestStatusTableUsesTheTerminalWidth: on a wide terminal the reason is
// whole; on a narrow one each row is cut to fit, with an ellipsis.
func TestStatusTableUsesTheTerminalWidth(t *testing.T) {
	wide := statusTable(t, 250)
	require.Len(t, wide, 3)
	assert.True(t, strings.HasSuffix(wide[1], longReason), wide[1])

	narrow := statusTable(t, 100)
	for _, line := range narrow {
		assert.LessOrEqual(t, ansi.StringWidth(line), 99, line)
	}
	assert.True(t, strings.HasSuffix(narrow[1], "…"), narrow[1])
	assert.Contains(t, narrow[1], `error line "FATAL: could not`)
}

// TestStatusTableWidthZeroIsWhole: piped output, a named process or -o
// wide pass width 0, and nothing is cut.
func TestStatusTableWidthZeroIsWhole(t *testing.T) {
	lines := statusTable(t, 0)
	assert.True(t, strings.HasSuffix(lines[1], longReason), lines[1])
}

// TestStatusTableKeepsAReadableReason: on a terminal too narrow even for
// NAME, STATE and a few characters of LAST, the reason keeps minLastWidth
// columns, and the row wraps instead.
func TestStatusTableKeepsAReadableReason(t *testing.T) {
	lines := statusTable(t, 20)
	last := lines[1][strings.Index(lines[1], "error"):]
	assert.Equal(t, minLastWidth, ansi.StringWidth(last), last)
}

// typicalStatus is a project as the tester saw it: names up to 7
// characters, every column filled.
func typicalStatus() []compose.ProcStatus {
	usage := wire.Usage{CPUPercent: cpu(12.5), MemoryBytes: 212 << 20}
	return []compose.ProcStatus{
		{Name: "db", State: rules.StateFailed, Run: 1, Restarts: 3, Message: longReason},
		{Name: "web", State: rules.StateReady, Run: 2, PID: 424242, Ports: []int{5173, 5174}, UptimeMs: 3_723_000, Usage: usage},
		{Name: "worker", State: rules.StateBusy, Run: 1, PID: 424243, UptimeMs: 62_000, Usage: usage, Message: "ready in 1.2s: matched \"listening\""},
		{Name: "migrate", State: rules.StateCompleted, Run: 1, Message: "exit code 0"},
	}
}

// statusLines is the status table of list on a terminal width wide.
func statusLines(t *testing.T, list []compose.ProcStatus, width int) []string {
	t.Helper()
	var out bytes.Buffer
	newApp(nil, &out, nil, nil).printStatusTable(list, width)
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// TestStatusTableFitsTheTerminal: on a terminal no line is wider than it
// (the last column left free): LAST gets what is left, and when too
// little is, the least useful columns go first, as in procs tui: CPU and
// MEM, then RESTARTS, PID and PORTS, UPTIME, RUN (a column that still
// fits is kept); NAME, STATE and LAST stay.
func TestStatusTableFitsTheTerminal(t *testing.T) {
	tests := []struct {
		width  int
		header string
	}{
		{120, `^NAME +STATE +RUN +PID +CPU +MEM +PORTS +UPTIME +RESTARTS +LAST$`},
		{80, `^NAME +STATE +RUN +PID +PORTS +UPTIME +LAST$`},
		{60, `^NAME +STATE +RUN +UPTIME +LAST$`},
		{40, `^NAME +STATE +LAST$`},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.width), func(t *testing.T) {
			lines := statusLines(t, typicalStatus(), tt.width)
			require.Len(t, lines, 5)
			assert.Regexp(t, tt.header, lines[0])
			for _, line := range lines {
				assert.LessOrEqual(t, ansi.StringWidth(line), tt.width-1, line)
			}
			assert.Regexp(t, `^db +failed .*error line .*…$`, lines[1])
			last := lines[1][strings.Index(lines[1], "error line"):]
			assert.GreaterOrEqual(t, ansi.StringWidth(last), min(wantedLastWidth, tt.width-21), last)
			assert.Regexp(t, `^migrate +completed .*exit code 0$`, lines[4])
		})
	}
}

// TestStatusTableWholeKeepsEveryColumn: piped, -o wide or a named process
// (width 0), every column is there and LAST is whole, however long.
func TestStatusTableWholeKeepsEveryColumn(t *testing.T) {
	lines := statusLines(t, typicalStatus(), 0)
	assert.Regexp(t, `^NAME +STATE +RUN +PID +CPU +MEM +PORTS +UPTIME +RESTARTS +LAST$`, lines[0])
	assert.True(t, strings.HasSuffix(lines[1], longReason), lines[1])
}

// TestStatusTableGroupRowsFit: the row of a replicated process drops the
// same columns as the others.
func TestStatusTableGroupRowsFit(t *testing.T) {
	list := append(typicalStatus(),
		compose.ProcStatus{Name: "queue-1", ReplicaOf: "queue", State: rules.StateReady, Run: 1, PID: 500, Message: longReason},
		compose.ProcStatus{Name: "queue-2", ReplicaOf: "queue", State: rules.StateReady, Run: 1, PID: 501, Message: longReason},
	)
	lines := statusLines(t, list, 60)
	require.Len(t, lines, 8)
	for _, line := range lines {
		assert.LessOrEqual(t, ansi.StringWidth(line), 59, line)
	}
	assert.Regexp(t, `^queue +ready +.*2 replicas$`, lines[5])
	assert.Regexp(t, `^  queue-1 +ready +1 +- +error line`, lines[6])
}
