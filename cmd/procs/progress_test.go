//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/hinshun/vt10x"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// terminalRun is a command running in a real PTY of 100×30, with all it
// wrote kept.
type terminalRun struct {
	cmd      *exec.Cmd
	terminal *os.File
	mu       sync.Mutex
	out      []byte
	copied   chan struct{}
	ended    chan error
}

func startOnTerminal(t *testing.T, dir string, args ...string) *terminalRun {
	t.Helper()
	return startOnTerminalOfSize(t, 30, dir, args...)
}

func startOnTerminalOfSize(t *testing.T, rows uint16, dir string, args ...string) *terminalRun {
	t.Helper()
	r := &terminalRun{cmd: procsCommand(dir, args...), copied: make(chan struct{}), ended: make(chan error, 1)}
	terminal, err := pty.StartWithSize(r.cmd, &pty.Winsize{Cols: 100, Rows: rows})
	require.NoError(t, err)
	r.terminal = terminal
	go func() {
		defer close(r.copied)
		buf := make([]byte, 4096)
		for {
			n, err := terminal.Read(buf)
			r.mu.Lock()
			r.out = append(r.out, buf[:n]...)
			r.mu.Unlock()
			if err != nil {
				return // EIO once the command has ended
			}
		}
	}()
	go func() { r.ended <- r.cmd.Wait() }()
	t.Cleanup(func() { _ = r.cmd.Process.Kill(); terminal.Close() })
	return r
}

func (r *terminalRun) written() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return string(r.out)
}

// waitFor waits until the command has written text.
func (r *terminalRun) waitFor(t *testing.T, text string) {
	t.Helper()
	require.Eventually(t, func() bool { return strings.Contains(r.written(), text) }, clientDeadline, 10*time.Millisecond,
		"never wrote %q; wrote:\n%s", text, r.written())
}

// end waits for the command to exit and returns its exit code and the
// screen it left, one trimmed row per line.
func (r *terminalRun) end(t *testing.T) (int, []string) {
	t.Helper()
	var err error
	select {
	case err = <-r.ended:
	case <-time.After(clientDeadline):
		t.Fatalf("still running %v later; wrote:\n%s", clientDeadline, r.written())
	}
	select {
	case <-r.copied:
	case <-time.After(clientDeadline):
		t.Fatal("the terminal never reported the end of output")
	}
	code := 0
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		code = exitErr.ExitCode()
	} else {
		require.NoError(t, err)
	}
	screen := vt10x.New(vt10x.WithSize(100, 30))
	_, _ = io.WriteString(screen, r.written())
	var rows []string
	for _, row := range strings.Split(screen.String(), "\n") {
		if row = strings.TrimRight(row, " "); row != "" {
			rows = append(rows, row)
		}
	}
	return code, rows
}

func writeProject(t *testing.T, yamlText string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte(yamlText), 0o644))
	t.Cleanup(func() {
		_ = procsCommand(dir, "down", "--timeout", "5s").Run()
		stopLeftover(filepath.Join(dir, ".procs", "procs.pid"))
	})
	return dir
}

// TestUpWaitShowsProgressOnATerminal: on a terminal, up -d --wait shows a
// line per process in start order, saying what it waits for, replaced in
// place by its result.
func TestUpWaitShowsProgressOnATerminal(t *testing.T) {
	dir := writeProject(t, `
procs:
  db:
    command: while [ ! -f go ]; do sleep 0.05; done; echo ready; sleep 300
    readyPatterns: [ready]
  migrate:
    kind: task
    command: echo migrated
    dependsOn: [db]
  api:
    command: echo ready; sleep 300
    readyPatterns: [ready]
    dependsOn: {db: ready, migrate: completed}
  web:
    command: echo ready; sleep 300
    readyPatterns: [ready]
`)
	r := startOnTerminal(t, dir, "up", "-d", "--wait")
	r.waitFor(t, "waiting for db…")
	r.waitFor(t, "waiting for api (after db, migrate)…")
	// web needs nothing: its result is in while db still waits.
	r.waitFor(t, "web ready (run 1")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go"), nil, 0o644))
	code, rows := r.end(t)
	require.Equal(t, 0, code, "screen:\n%s", strings.Join(rows, "\n"))
	require.Len(t, rows, 4, "one line per process, redrawn in place:\n%s", strings.Join(rows, "\n"))
	for i, want := range []string{"db ready (run 1", "migrate completed (run 1", "api ready (run 1", "web ready (run 1"} {
		assert.True(t, strings.HasPrefix(rows[i], want), "row %d is %q, want %q…", i, rows[i], want)
	}
}

// TestUpWaitProgressShowsTheFailure: a process that fails ends the wait
// (exit 1); its line says why (its error line), and the processes it held
// back say so.
func TestUpWaitProgressShowsTheFailure(t *testing.T) {
	dir := writeProject(t, `
procs:
  db:
    command: echo "FATAL - could not bind port"; exit 3
  api:
    command: echo ready; sleep 300
    readyPatterns: [ready]
    dependsOn: [db]
`)
	code, rows := startOnTerminal(t, dir, "up", "-d", "--wait").end(t)
	screen := strings.Join(rows, "\n")
	require.Equal(t, 1, code, "screen:\n%s", screen)
	require.GreaterOrEqual(t, len(rows), 2, screen)
	// Which answer comes first, db's failure or api's blocking, varies;
	// either way both lines say db failed, and its error line shows.
	assert.True(t, strings.HasPrefix(rows[0], "db failed"), screen)
	assert.Contains(t, rows[0], "exit code 3")
	assert.True(t, strings.HasPrefix(rows[1], "api "), screen)
	assert.Contains(t, rows[1], "db failed")
	assert.Contains(t, screen, "FATAL - could not bind port")
}

// TestUpWaitProgressShowsTheFailedOneFirstAnswered: when a dependent's
// blocking is answered before the failure that blocked it, the failed
// process still gets its result and its last lines; the wait used to stop
// at the dependent's answer, leaving only the failed state on a's line.
func TestUpWaitProgressShowsTheFailedOneFirstAnswered(t *testing.T) {
	dir := writeProject(t, `
procs:
  a: {command: "echo boom >&2; exit 3"}
  b: {command: sleep 100, dependsOn: [a]}
  c: {command: sleep 100, dependsOn: [b]}
`)
	code, rows := startOnTerminal(t, dir, "up", "-d", "--wait").end(t)
	screen := strings.Join(rows, "\n")
	require.Equal(t, 1, code, "screen:\n%s", screen)
	require.GreaterOrEqual(t, len(rows), 3, screen)
	assert.True(t, strings.HasPrefix(rows[0], "a failed (run 1)"), screen)
	assert.True(t, strings.HasPrefix(rows[1], "b blocked"), screen)
	assert.True(t, strings.HasPrefix(rows[2], "c blocked"), screen)
	assert.Contains(t, screen, "last lines of a:\n  | boom")
}

// TestUpWaitProgressCtrlC: Ctrl-C typed on the terminal ends the wait with
// exit 130; the lines say the wait stopped.
func TestUpWaitProgressCtrlC(t *testing.T) {
	dir := writeProject(t, `
procs:
  never:
    command: sleep 300
    readyPatterns: [never printed]
`)
	r := startOnTerminal(t, dir, "up", "-d", "--wait")
	r.waitFor(t, "waiting for never…")
	_, err := r.terminal.Write([]byte{3}) // Ctrl-C
	require.NoError(t, err)
	code, rows := r.end(t)
	screen := strings.Join(rows, "\n")
	assert.Equal(t, 130, code, screen)
	assert.Contains(t, screen, "never not ready yet (stopped waiting)")
	assert.Contains(t, screen, "interrupted by Ctrl-C")
}

// TestUpWaitProgressOnASmallTerminal: a block taller than the terminal
// cannot be redrawn in place; each line is printed below the others.
func TestUpWaitProgressOnASmallTerminal(t *testing.T) {
	// b and c wait for a, so they are still waiting when the block is
	// first printed, however loaded the machine; a may be ready already.
	dir := writeProject(t, `
procs:
  a: {command: "sleep 1; echo ready; sleep 300", readyPatterns: [ready]}
  b: {command: "echo ready; sleep 300", readyPatterns: [ready], dependsOn: [a]}
  c: {command: "echo ready; sleep 300", readyPatterns: [ready], dependsOn: [a]}
`)
	r := startOnTerminalOfSize(t, 3, dir, "up", "-d", "--wait")
	code, _ := r.end(t)
	out := r.written()
	require.Equal(t, 0, code, out)
	assert.NotContains(t, out, "\x1b[", "no cursor movement")
	assert.False(t, strings.HasPrefix(out, "\r\n"), "no empty line for a process ready already:\n%s", out)
	for _, name := range []string{"b", "c"} {
		assert.Contains(t, out, "waiting for "+name+" (after a)…")
	}
	for _, name := range []string{"a", "b", "c"} {
		assert.Contains(t, out, name+" ready (run 1")
	}
}
