package compose

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// TestNewReservesDescriptorsForItsProcesses: an engine grows procs'
// descriptor table once, to what its processes will hold, before it starts
// any (osproc.ReserveFDs): grown on demand, a start of 200 processes
// waited five times for the kernel. 1000 processes need a table larger
// than any other test of this package makes.
func TestNewReservesDescriptorsForItsProcesses(t *testing.T) {
	const n = 1000
	var yaml strings.Builder
	yaml.WriteString("procs:\n")
	for i := range n {
		fmt.Fprintf(&yaml, "  p%04d:\n    command: sleep 300\n", i)
	}
	cfg := parseConfig(t, yaml.String())
	require.Less(t, testenv.FDTableSize(t), reservedDescriptors(n), "the table is already that large")
	_, err := New(cfg, Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	deadline := time.Now().Add(waitLimit)
	for testenv.FDTableSize(t) < reservedDescriptors(n) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the kernel gives no event for it
	}
	assert.GreaterOrEqual(t, testenv.FDTableSize(t), reservedDescriptors(n))
}
