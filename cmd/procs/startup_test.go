package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// initBudgetBytes bounds what the packages of procs may allocate before
// main runs, for every command alike: a client such as procs status must
// not compile the engine's patterns or parse presets it never uses (they
// are compiled on first use; see internal/lazyregexp).
const initBudgetBytes = 64 << 10

// TestPackageInitIsCheap runs this binary with the runtime's init trace and
// adds up what the procs packages' init allocated.
func TestPackageInitIsCheap(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	// init PKG @T ms, C ms clock, BYTES bytes, N allocs
	line := regexp.MustCompile(`(?m)^init (github\.com/procsdev/procs\S*) @.*, (\d+) bytes, \d+ allocs$`)
	total, seen := 0, 0
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		n, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		total += n
		seen++
		t.Logf("%s: %d bytes", m[1], n)
	}
	require.NotZero(t, seen, "the init trace lists the procs packages:\n%s", out)
	assert.LessOrEqual(t, total, initBudgetBytes, "bytes allocated by the procs packages' init")
}
