package compose

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// watchExec calls onExec with the command lines of the process tree under
// pid when first seen and each time they change, until ctx is done or the
// process is gone. A pyenv or asdf shim runs bash, then the real program,
// often seconds later on a busy machine: a run ready by running must settle
// from when the real program runs, or a worker that dies at import would be
// ready first; and a program still busy starting (importing, on a loaded
// machine) has not settled either. The OS gives no exec events, so it looks on a backoff from
// 10 ms to 100 ms; it runs only while such a run settles.
func watchExec(ctx context.Context, pid int, onExec func(at time.Time, programs string, busy bool)) {
	last, wasBusy := "", false
	wait := 10 * time.Millisecond
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		tree, err := rules.ProcessTree(pid)
		if err != nil {
			return // gone: its exit reaches the run loop another way
		}
		programs, busy := commandLines(tree), anyRunning(tree)
		if programs != last || busy != wasBusy {
			last, wasBusy = programs, busy
			onExec(time.Now(), programs, busy)
		}
		timer.Reset(wait)
		wait = min(wait*2, 100*time.Millisecond)
	}
}

// anyRunning reports whether a process of pids is running or runnable, or
// waiting for the disk: still starting up, where a process that waits for
// work sleeps (osproc.Running; always false where the OS cannot tell).
func anyRunning(pids []int) bool { return slices.ContainsFunc(pids, osproc.Running) }

// commandLines returns the command lines of pids, one a line.
func commandLines(pids []int) string {
	var b strings.Builder
	for _, pid := range pids {
		if line := osproc.CommandLine(pid); line != "" || osproc.Alive(pid) {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
