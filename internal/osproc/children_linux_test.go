package osproc

import (
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChildrenOfMissesNoneWhileOthersExit lists the children of a process
// with more of them than one small read holds, while others among them
// exit: the kernel lists children from a position on each read, and a
// child that left before the position moved every later one back, so a
// listing read in pieces skipped one that was there all along (a sweep
// then missed an escaped process among two hundred runs).
func TestChildrenOfMissesNoneWhileOthersExit(t *testing.T) {
	parent := exec.Command("sh", "-c", `
		i=0
		while [ $i -lt 150 ]; do
			sleep $((i % 4 + 2)).$((i % 9)) & sleep 300 &
			i=$((i + 1))
		done
		wait`)
	require.NoError(t, parent.Start())
	t.Cleanup(func() {
		for _, child := range ChildrenOf(parent.Process.Pid) {
			_ = syscall.Kill(child, syscall.SIGKILL)
		}
		_ = parent.Process.Signal(syscall.SIGKILL)
		_ = parent.Wait()
	})
	var sleepers []int
	require.Eventually(t, func() bool {
		sleepers = sleepers[:0]
		for _, child := range ChildrenOf(parent.Process.Pid) {
			if strings.Contains(CommandLine(child), "sleep 300") {
				sleepers = append(sleepers, child)
			}
		}
		return len(sleepers) == 150
	}, 3*waitLimit, 10*time.Millisecond, "the 150 long sleepers start")

	skipped, listings := 0, 0
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); listings++ {
		listed := ChildrenOf(parent.Process.Pid)
		for _, s := range sleepers {
			if !slices.Contains(listed, s) {
				skipped++
			}
		}
	}
	assert.Zero(t, skipped, "long sleepers missing from %d listings while the short ones exit", listings)
}
