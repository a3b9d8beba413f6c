package compose

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/rules"
)

// watchExec calls onExec with the command lines of the process tree under
// pid when first seen and each time they change, until ctx is done or the
// process is gone. A pyenv or asdf shim runs bash, then the real program,
// often seconds later on a busy machine: a run ready by running must settle
// from when the real program runs, or a worker that dies at import would be
// ready first; and a program still busy starting (importing, on a loaded
// machine) has not settled either. /proc has no exec events, so it looks on a backoff from
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
// waiting for the disk (state R or D in /proc/PID/stat): still starting up,
// where a process that waits for work sleeps (S).
func anyRunning(pids []int) bool {
	for _, pid := range pids {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) && (s[i+2] == 'R' || s[i+2] == 'D') {
			return true
		}
	}
	return false
}

// commandLines returns the command lines of pids, one a line.
func commandLines(pids []int) string {
	var b strings.Builder
	for _, pid := range pids {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err != nil {
			continue
		}
		b.WriteString(strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " ")))
		b.WriteByte('\n')
	}
	return b.String()
}
