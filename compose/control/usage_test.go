package control

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUsageOnlyWhenAsked: the list measures what each process uses only
// with usage=true (measuring may take a quarter of a second, which the
// commands after states alone must not wait for); GET /v1/usage then has
// the measures taken at a fixed rate since, and after=SEQ only the later.
func TestUsageOnlyWhenAsked(t *testing.T) {
	h := startHarness(t, `
procs:
  web:
    command: sh -c 'echo up; exec sleep 600'
    readyPatterns: [up]
  task:
    command: echo done
    kind: task
`)
	// The task too: until it has ended, it uses something.
	h.waitReady(t, "web", "task")
	ctx := testCtx(t)

	plain, err := h.client.Get(ctx, "web")
	require.NoError(t, err)
	assert.False(t, plain.Known(), "no usage unless asked for")

	list, err := h.client.ListUsage(ctx)
	require.NoError(t, err)
	for _, st := range list {
		switch st.Name {
		case "web":
			require.NotNil(t, st.CPUPercent)
			assert.Positive(t, st.MemoryBytes)
		case "task":
			assert.False(t, st.Known(), "a task that ended uses nothing")
		}
	}
	one, err := h.client.GetUsage(ctx, "web")
	require.NoError(t, err)
	assert.Positive(t, one.MemoryBytes)

	require.Eventually(t, func() bool {
		hist, err := h.client.UsageHistory(ctx, 0)
		return err == nil && len(hist.Procs["web"]) > 0
	}, testDeadline, 100*time.Millisecond, "a measure every 2 s while someone looks")
	hist, err := h.client.UsageHistory(ctx, 0)
	require.NoError(t, err)
	assert.EqualValues(t, 2000, hist.IntervalMs)
	later, err := h.client.UsageHistory(ctx, hist.Seq)
	require.NoError(t, err)
	for _, points := range later.Procs {
		for _, p := range points {
			assert.Greater(t, p.Seq, hist.Seq, "only the measures after after=")
		}
	}
}
