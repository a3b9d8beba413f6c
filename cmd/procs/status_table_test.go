package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
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

// TestStatusTableKeepsAReadableReason: on a very narrow terminal the
// reason keeps minLastWidth columns, and the row wraps instead.
func TestStatusTableKeepsAReadableReason(t *testing.T) {
	lines := statusTable(t, 40)
	last := lines[1][strings.Index(lines[1], "error line"):]
	assert.Equal(t, minLastWidth, ansi.StringWidth(last), last)
}
