package compose

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// needLimits skips the test (fails it under PROCS_REQUIRE_E2E=1) where the
// kernel cannot enforce l here, saying why.
func needLimits(t *testing.T, l contain.Limits) {
	t.Helper()
	if err := contain.LimitsAvailable(l); err != nil {
		testenv.Missing(t, err.Error())
	}
}

// A process with memory: 64M that allocates 200 MiB fails with the
// memory-limit reason, not a bare SIGKILL, and its restart policy starts
// its second run.
func TestMemoryLimitFailsTheRunAndRestarts(t *testing.T) {
	needLimits(t, contain.Limits{Memory: 64 << 20})
	python := testenv.LookPath(t, "python3")
	te := startEngine(t, `
procs:
  hog:
    command: exec `+python+` -c 'b = bytearray(200 * 2**20); print("allocated")'
    resources: {memory: 64M}
    restart: {policy: on-failure, maxRestarts: 1, backoff: 10ms..10ms}
`, Options{NoWatchdog: true})
	failed := te.waitState("hog", rules.StateFailed)
	assert.Equal(t, rules.ReasonMemoryLimit, failed.Reason)
	assert.True(t, strings.HasPrefix(failed.Message, "killed by the kernel: memory limit 64 MiB reached (peak 6"), failed.Message)
	assert.NotContains(t, failed.Message, "SIGKILL")
	backoff := te.waitState("hog", rules.StateBackoff)
	assert.Contains(t, backoff.Message, "memory limit 64 MiB reached")
	second := te.waitFor("hog run 2 fails the same way", func(ev Event) bool {
		return ev.Type == EventState && ev.Proc == "hog" && ev.Run == 2 && ev.To == rules.StateFailed
	})
	assert.Equal(t, rules.ReasonMemoryLimit, second.Reason)
}

// A busy loop held at cpu: 0.2 says so in its status (starting, as it
// is: busy on a CPU, it is still taken for a program starting up).
func TestCPULimitShowsInStatus(t *testing.T) {
	needLimits(t, contain.Limits{CPU: 0.2})
	te := startEngine(t, `
procs:
  spin:
    command: "while :; do :; done"
    resources: {cpu: 0.2}
`, Options{NoWatchdog: true})
	var st ProcStatus
	require.Eventually(t, func() bool {
		var err error
		st, err = te.StatusOf("spin")
		require.NoError(t, err)
		return strings.Contains(st.Message, "held at its CPU limit (0.2 cores): throttled ")
	}, waitLimit, 200*time.Millisecond)
	t.Log(st.Message)
}

func TestCPUHeldMeasuresOverTheWindow(t *testing.T) {
	t0 := time.Now()
	var h cpuHeld
	h.samples = []throttleSample{{at: t0}}
	assert.Equal(t, t0, h.add(throttleSample{at: t0.Add(4 * time.Second), throttled: 3 * time.Second}).at, "from the run's start")
	assert.Equal(t, t0, h.add(throttleSample{at: t0.Add(10 * time.Second), throttled: 8 * time.Second}).at)
	base := h.add(throttleSample{at: t0.Add(15 * time.Second), throttled: 12 * time.Second})
	assert.Equal(t, t0.Add(4*time.Second), base.at, "the latest sample at least 10 s old")
	assert.Len(t, h.samples, 3, "older ones are dropped")
	assert.Equal(t, "1.5 cores", coresText(1.5))
	assert.Equal(t, "1 core", coresText(1))
	assert.Equal(t, "2.1 s", seconds(2100*time.Millisecond))
}
