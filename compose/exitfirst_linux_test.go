package compose

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// daemonizeOnSignal binds port on SIGUSR1 and, on a second one, leaves a
// child holding the socket and the output and exits 0: a daemonizing
// server whose steps a test can time.
const daemonizeOnSignal = `import os, signal, socket, sys, time
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
print("started", flush=True)
signal.sigwait({signal.SIGUSR1})
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
signal.sigwait({signal.SIGUSR1})
if os.fork() == 0:
    time.sleep(60)
os._exit(0)
`

// A port seen while the main process ran, but taken in by the run loop
// after the main exited, is no sign of readiness: the run is over, and the
// port is its daemon's. The exit is taken first, and the run is failed
// as daemonized, never ready on the way. The run loop is held while the
// watcher's report waits and the main process exits, so that both are
// there when it looks again (under load, this is what happened to nginx,
// which binds before it forks its daemon).
func TestPortSeenBeforeAnExitTakenAfterItIsNotReady(t *testing.T) {
	needProgram(t, "python3")
	dir := t.TempDir()
	script := filepath.Join(dir, "daemon.py")
	require.NoError(t, os.WriteFile(script, []byte(daemonizeOnSignal), 0o644))
	port := freePort(t)
	te := startEngine(t, fmt.Sprintf("procs:\n  srv: {command: python3 %s %d, port: %d}\n", script, port, port),
		Options{NoWatchdog: true})
	te.waitLine("srv", "started")
	var sup *supervisor
	require.NoError(t, te.onProc("srv", func(ps *procState) error { sup = ps.sup; return nil }))
	require.NotNil(t, sup)
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	require.NoError(t, sup.onLoop(ctx, func(l *runLoop) {
		pid := l.c.PID()
		assert.NoError(t, syscall.Kill(pid, syscall.SIGUSR1))
		assert.Eventually(t, func() bool { return len(l.portsCh) == 1 }, waitLimit, time.Millisecond,
			"the watcher reports the port")
		assert.NoError(t, syscall.Kill(pid, syscall.SIGUSR1))
		assert.Eventually(t, func() bool { return osproc.ExitPending(pid) }, waitLimit, time.Millisecond,
			"the main process exits")
	}))
	last := te.expectStates("srv", rules.StateStarting, rules.StateFailed)
	assert.Equal(t, rules.ReasonDaemonized, last.Reason, last.Message)
}
