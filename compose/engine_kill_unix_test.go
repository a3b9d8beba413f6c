//go:build unix

package compose

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// A second Down kills at once, also a run whose main process has ended on
// the stop signal and left a child that ignores it: the run then waits
// for that child until its stop's deadline (60 s here), and the kill must
// not wait for the deadline too. Down is what procs' second Ctrl-C does.
// The child writes elsewhere, so the run's output ends with the main
// process, and the run waits at once in its end, not in the output's
// grace, where a kill was always taken. The main process says "up" only
// once the child has set its trap, or the first Down would end the child
// too and leave nothing for the second to kill.
func TestASecondDownKillsWhatTheMainProcessLeft(t *testing.T) {
	te := startEngine(t, `
procs:
  stubborn:
    command: [sh, -c, "echo $$$$ > main.pid; sh -c 'trap \"\" TERM; touch trapped; while :; do sleep 0.2; done' >/dev/null 2>&1 & until [ -e trapped ]; do sleep 0.01; done; echo up; wait"]
    readyPatterns: [up]
    shutdown: {timeout: 60s}
`, Options{NoWatchdog: true})
	te.waitState("stubborn", rules.StateReady)
	main := readPID(t, filepath.Join(te.dir, "main.pid"))
	require.NoError(t, te.Down())
	// The main process has ended, and been reaped: the run now waits for
	// what it left.
	require.Eventually(t, func() bool { return errors.Is(syscall.Kill(main, 0), syscall.ESRCH) },
		waitLimit, 10*time.Millisecond, "the main process ends on SIGTERM")
	require.NoError(t, te.Down())
	te.waitOutcome() // within waitLimit, well before the 60 s deadline
}
