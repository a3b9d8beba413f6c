package control

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// manyServices is a config of n services, each ready once it printed ready.
func manyServices(n int) (string, []string) {
	var b strings.Builder
	b.WriteString("procs:\n")
	names := make([]string, n)
	for i := range n {
		names[i] = fmt.Sprintf("p%03d", i)
		// After a short while, so that every wait is held open at once.
		fmt.Fprintf(&b, "  %s:\n    command: sleep 0.5; echo ready; exec sleep 300\n    readyPatterns: [ready]\n", names[i])
	}
	return b.String(), names
}

// shrinkConnCap lowers the connection cap for one test, so that a wait
// costing a connection per process meets it with a few processes.
func shrinkConnCap(t *testing.T, conns int) {
	old := maxConns
	maxConns = conns
	t.Cleanup(func() { maxConns = old })
}

// TestWaitAllCostsOneConnection waits for more processes than procs serves
// connections: one wait must hold one connection, whatever their number
// (issue 28, item 3: up -d --wait failed above 256 processes).
func TestWaitAllCostsOneConnection(t *testing.T) {
	shrinkConnCap(t, 4)
	yamlText, names := manyServices(24)
	h := startHarness(t, yamlText)
	seen := map[string]bool{}
	err := h.client.WaitAll(testCtx(t), testDeadline, func(place int, res rules.Result) bool {
		assert.Equal(t, names[place], res.Name)
		assert.True(t, res.Success, "%s: %s", res.Name, res.Message)
		seen[res.Name] = true
		return true
	})
	require.NoError(t, err)
	assert.Len(t, seen, len(names))
}

// TestWaitManyCostsOneConnection is the same for `procs wait NAME...`: the
// results come back in the order of the names asked for.
func TestWaitManyCostsOneConnection(t *testing.T) {
	shrinkConnCap(t, 4)
	yamlText, names := manyServices(24)
	h := startHarness(t, yamlText)
	results, errs := h.client.WaitMany(testCtx(t), names, WaitOptions{Timeout: testDeadline})
	require.Len(t, results, len(names))
	for i, res := range results {
		require.NoError(t, errs[i])
		assert.Equal(t, names[i], res.Name)
		assert.True(t, res.Success, "%s: %s", res.Name, res.Message)
	}
}

// TestWaitManyUnknownNameIsTheSingleWaitsError keeps `procs wait nosuch`
// saying what it said: the unknown process, and the known ones.
func TestWaitManyUnknownNameIsTheSingleWaitsError(t *testing.T) {
	h := startHarness(t, oneService)
	_, errs := h.client.WaitMany(testCtx(t), []string{"web", "nosuch"}, WaitOptions{Timeout: 5 * time.Second})
	var apiErr *APIError
	require.ErrorAs(t, errs[1], &apiErr)
	assert.Equal(t, 404, apiErr.Status)
	assert.Contains(t, apiErr.Known, "web")
}
