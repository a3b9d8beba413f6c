package compose

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/wire"
)

// startSampler runs a sampler of the given processes until the test ends.
func startSampler(t *testing.T, targets ...usageTarget) *usageSampler {
	t.Helper()
	s := newUsageSampler("test", func(context.Context) ([]usageTarget, error) { return targets, nil })
	s.interval, s.lease = 50*time.Millisecond, 2*time.Second
	ctx, cancel := context.WithCancel(context.Background())
	go s.run(ctx)
	t.Cleanup(func() { cancel(); <-s.done })
	return s
}

func startProgram(t *testing.T, argv ...string) int {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd.Process.Pid
}

// ticking says whether the sampler has a timer.
func ticking(t *testing.T, s *usageSampler) bool {
	var on bool
	require.True(t, s.do(context.Background(), func(context.Context) { on = s.ticker != nil }))
	return on
}

// TestUsageSamplerMeasuresWhileSomeoneLooks: nobody looking, no timer; a
// look answers CPU and memory at once (measuring twice), then measures go
// on for the lease, adding history, and stop with it.
func TestUsageSamplerMeasuresWhileSomeoneLooks(t *testing.T) {
	busy := startProgram(t, "sh", "-c", "while :; do :; done")
	idle := startProgram(t, "sleep", "30")
	s := startSampler(t, usageTarget{name: "busy", run: 1, pid: busy}, usageTarget{name: "idle", run: 1, pid: idle},
		usageTarget{name: "stopped", run: 2})
	assert.False(t, ticking(t, s), "no timer before anyone looks")

	list := []ProcStatus{{Name: "busy", Run: 1, PID: busy}, {Name: "idle", Run: 1, PID: idle}, {Name: "stopped", Run: 2}}
	var got []wire.Usage
	require.True(t, s.do(context.Background(), func(ctx context.Context) {
		s.look(ctx)
		for _, st := range list {
			got = append(got, s.usageOf(st))
		}
	}))
	require.NotNil(t, got[0].CPUPercent, "a first look measures twice")
	assert.Greater(t, *got[0].CPUPercent, 10.0, "a busy loop")
	require.NotNil(t, got[1].CPUPercent)
	assert.Less(t, *got[1].CPUPercent, 5.0, "sleep")
	assert.Positive(t, got[1].MemoryBytes)
	assert.GreaterOrEqual(t, got[1].MemoryPeakBytes, got[1].MemoryBytes)
	assert.False(t, got[2].Known(), "a process that does not run has no usage")
	assert.True(t, ticking(t, s), "measures go on while leased")

	require.Eventually(t, func() bool {
		var points int
		s.do(context.Background(), func(context.Context) { points = len(s.runs["busy"].history) })
		return points >= 2
	}, 10*time.Second, 20*time.Millisecond, "history while leased")
	require.Eventually(t, func() bool { return !ticking(t, s) }, 10*time.Second, 20*time.Millisecond,
		"the timer stops with the lease")
}

// TestUsageOfAnotherRun: a measure of an earlier run says nothing of the
// current one.
func TestUsageOfAnotherRun(t *testing.T) {
	pid := startProgram(t, "sleep", "30")
	s := startSampler(t, usageTarget{name: "web", run: 1, pid: pid})
	var u wire.Usage
	require.True(t, s.do(context.Background(), func(ctx context.Context) {
		s.look(ctx)
		u = s.usageOf(ProcStatus{Name: "web", Run: 2, PID: pid})
	}))
	assert.False(t, u.Known())
}

func TestUsageHistoryLength(t *testing.T) {
	ru := &runUsage{}
	for i := range usageHistoryLen + 10 {
		ru.addPoint(wire.UsagePoint{Seq: int64(i + 1)})
	}
	require.Len(t, ru.history, usageHistoryLen)
	assert.Equal(t, int64(11), ru.history[0].Seq, "the oldest go first")
	assert.Equal(t, int64(usageHistoryLen+10), ru.history[usageHistoryLen-1].Seq)
}
