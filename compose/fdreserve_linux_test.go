package compose

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// TestNewReservesDescriptorsForItsProcesses: an engine grows procs'
// descriptor table once, to what its processes will hold, before it starts
// any (osproc.ReserveFDs): grown on demand, a start of 200 processes
// waited five times for the kernel. The config has enough processes to
// need twice the table this test process has now (other tests grow it
// too), within RLIMIT_NOFILE.
func TestNewReservesDescriptorsForItsProcesses(t *testing.T) {
	var limit syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit))
	n := 2 * testenv.FDTableSize(t) / descriptorsPerRun
	for reservedDescriptors(n) > int(min(limit.Cur, 1<<20)) {
		n /= 2 // run again in one process, the table may be at the limit
	}
	var yaml strings.Builder
	yaml.WriteString("procs:\n")
	for i := range n {
		fmt.Fprintf(&yaml, "  p%05d:\n    command: sleep 300\n", i)
	}
	cfg := parseConfig(t, yaml.String())
	_, err := New(cfg, Options{LogDir: t.TempDir()})
	require.NoError(t, err)
	deadline := time.Now().Add(waitLimit)
	for testenv.FDTableSize(t) < reservedDescriptors(n) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond) // the kernel gives no event for it
	}
	assert.GreaterOrEqual(t, testenv.FDTableSize(t), reservedDescriptors(n), "for %d processes", n)
}
