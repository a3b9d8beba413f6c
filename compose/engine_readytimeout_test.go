package compose

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// A run failed by its readyTimeout keeps running (design: "keeps the
// process running unless configured to kill it"), its failure saying what
// was and was not seen, and its dependents blocked naming it; its ready
// line, when it comes at last, makes it ready and starts them.
func TestReadyTimeoutKeepsTheRunAndALateReadyLineCounts(t *testing.T) {
	te := startEngine(t, `
procs:
  slow:
    command: |
      echo $$$$ > pid
      while [ ! -e go ]; do sleep 0.05; done
      echo ready now
      exec sleep 1000
    readyPatterns: ['ready now']
    readyTimeout: 1s
  dep: {command: "echo hello; exec sleep 1000", dependsOn: [slow]}
`, Options{NoWatchdog: true, StayUp: true})
	failed := te.waitFor("slow failed by its timeout", func(ev Event) bool {
		return ev.Type == EventState && ev.Proc == "slow" && ev.To == rules.StateFailed
	})
	assert.Equal(t, rules.ReasonTimeout, failed.Reason)
	assert.Contains(t, failed.Message, "after 1s")
	pid := readPID(t, filepath.Join(te.dir, "pid"))
	require.Eventually(t, func() bool {
		st, err := te.StatusOf("dep")
		return err == nil && st.State == rules.StateBlocked && strings.Contains(st.Message, "slow failed")
	}, waitLimit, 20*time.Millisecond, "dep is blocked naming the failure")
	st, err := te.StatusOf("slow")
	require.NoError(t, err)
	assert.Equal(t, pid, st.PID, "a run past its readyTimeout keeps running")

	require.NoError(t, os.WriteFile(filepath.Join(te.dir, "go"), nil, 0o644))
	ready := te.waitFor("slow ready at its late line", func(ev Event) bool {
		return ev.Type == EventState && ev.Proc == "slow" && ev.To == rules.StateReady
	})
	assert.Equal(t, rules.StateFailed, ready.From)
	assert.Equal(t, 1, ready.Run, "the same run")
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	res, err := te.Wait(ctx, "dep", []rules.State{rules.StateReady}, 1)
	require.NoError(t, err)
	assert.True(t, res.Success, "dep starts once slow is ready: %+v", res)
}

// A wait given up on a run whose ready line came but whose port is not
// open says so, and so does its status: "starting: <command>" alone hides
// that the line was seen and the port is what is missing.
func TestAWaitGivenUpSaysTheLineMatchedButThePortIsNotOpen(t *testing.T) {
	port := freePort(t)
	te := startEngine(t, fmt.Sprintf(`
procs:
  api:
    command: echo listening; exec sleep 1000
    readyPatterns: [listening]
    port: %d
`, port), Options{NoWatchdog: true, StayUp: true})
	want := fmt.Sprintf(`port %d not open, matched "listening"`, port)
	require.Eventually(t, func() bool {
		st, err := te.StatusOf("api")
		return err == nil && st.Message == want
	}, waitLimit, 20*time.Millisecond, "status says what readiness waits for")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := te.Wait(ctx, "api", []rules.State{rules.StateReady}, 1)
	require.NoError(t, err)
	assert.False(t, res.Success)
	assert.Contains(t, res.Message, want)
}
