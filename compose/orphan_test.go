//go:build unix

package compose

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// runEngineHelperIfRequested runs an engine like `procs up` does, printing
// READY once every process is ready, until SIGINT or SIGTERM.
func runEngineHelperIfRequested() {
	file := os.Getenv(engineHelperEnv)
	if file == "" {
		return
	}
	cfg, err := config.Load(config.LoadOptions{File: file})
	if err != nil {
		fmt.Println("config:", err)
		os.Exit(2)
	}
	e, err := New(cfg, Options{})
	if err != nil {
		fmt.Println("engine:", err)
		os.Exit(2)
	}
	sub := e.Bus().Subscribe(false)
	go func() {
		ready := map[string]bool{}
		for range sub.Ready() {
			evs, _ := sub.Next()
			for _, ev := range evs {
				if ev.Type == EventState && ev.To == rules.StateReady {
					ready[ev.Proc] = true
				}
			}
			if len(ready) == len(cfg.Procs) {
				// Stands for the periodic scan having run once since.
				contain.ScanStrays()
				fmt.Println("READY")
				return
			}
		}
	}()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// SIGUSR1 stands for `procs down`.
	down := make(chan os.Signal, 1)
	signal.Notify(down, syscall.SIGUSR1)
	go func() {
		<-down
		_ = e.Down()
	}()
	_, _ = e.Run(ctx)
	os.Exit(0)
}

// TestNoOrphans runs an engine in a child process, with children,
// grandchildren and a process that escaped into its own session, then ends
// that procs in each way it can end and checks every one of them is gone.
func TestNoOrphans(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "procs.yaml")
			require.NoError(t, os.WriteFile(file, []byte(`
procs:
  tree:
    command: "sleep 300 & sleep 300 & setsid sh -c 'sleep 300' & echo ready; wait"
    readyPatterns: [ready]
  other:
    command: [sh, -c, "trap '' TERM; echo ready; sleep 300"]
    readyPatterns: [ready]
    shutdown: {timeout: 1s}
`), 0o644))
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), engineHelperEnv+"="+file)
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			waitForLine(t, out, "READY")

			marked := contain.FindMarked(fmt.Sprintf("%d-", cmd.Process.Pid))
			require.GreaterOrEqual(t, len(marked), 5, "sh, sleeps and the escaped session: %v", marked)

			require.NoError(t, cmd.Process.Signal(sig))
			_ = cmd.Wait()
			assert.Eventually(t, func() bool { return allGone(marked) }, waitLimit, 50*time.Millisecond,
				"processes left behind after %s: %v", sig, alive(marked))
		})
	}
}

func allGone(pids []int) bool { return len(alive(pids)) == 0 }

// TestStopTakesEscapedDescendants stops one process while procs goes on
// running: what it double-forked into a session of its own goes with it.
func TestStopTakesEscapedDescendants(t *testing.T) {
	te := startEngine(t, `
procs:
  tree:
    command: "setsid sh -c 'sleep 300' & (setsid sleep 300 &) ; echo ready; exec sleep 300"
    readyPatterns: [ready]
`, Options{NoWatchdog: true})
	te.waitState("tree", rules.StateReady)
	var marked []int
	require.Eventually(t, func() bool {
		marked = contain.FindMarked(te.instance + ":tree:")
		return len(marked) >= 3
	}, waitLimit, 20*time.Millisecond, "the main process and both escaped sleeps")

	_, err := te.Stop("tree")
	require.NoError(t, err)
	te.waitState("tree", rules.StateStopped)
	assert.Eventually(t, func() bool { return allGone(marked) }, waitLimit, 20*time.Millisecond,
		"left behind by stop: %v", alive(marked))
}
