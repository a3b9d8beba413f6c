package osproc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEnvironIsReadAcrossExec reads the environment of a shell that execs
// itself for ever: each exec leaves a moment when the process has dropped
// its old memory and not yet laid out its new stack, and the kernel then
// answers an empty environment. A reader that took that answer saw no
// PROCS_OWNER marker, and a sweep left an escaped process running that
// was starting a program (about one read in three here).
func TestEnvironIsReadAcrossExec(t *testing.T) {
	script := filepath.Join(t.TempDir(), "again.sh")
	require.NoError(t, os.WriteFile(script, []byte("exec sh \"$0\"\n"), 0o644))
	cmd := exec.Command("sh", script)
	cmd.Env = append(os.Environ(), "PROCS_OSPROC_TEST=marker")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); _ = cmd.Wait() })

	marker := []byte("PROCS_OSPROC_TEST=marker")
	var missed, missedAppend int
	for range 1000 {
		env, err := Environ(cmd.Process.Pid)
		if err != nil || !bytes.Contains(env, marker) {
			missed++
		}
		if !bytes.Contains(AppendEnviron(nil, cmd.Process.Pid), marker) {
			missedAppend++
		}
	}
	assert.Zero(t, missed, "Environ reads without the marker, of 1000")
	assert.Zero(t, missedAppend, "AppendEnviron reads without the marker, of 1000")
}

// TestEnvironOfAZombieIsEmpty: a process that has exited has no memory
// left, so no environment, and the read does not wait for an exec.
func TestEnvironOfAZombieIsEmpty(t *testing.T) {
	cmd := exec.Command("sh", "-c", "exit 0")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Wait() })
	require.Eventually(t, func() bool { return ExitPending(cmd.Process.Pid) }, waitLimit, 5*time.Millisecond)
	env, _ := Environ(cmd.Process.Pid)
	assert.Empty(t, env)
	assert.Empty(t, AppendEnviron(nil, cmd.Process.Pid))
}

// TestEmptyEnvironIsEmpty: a process started with no environment at all
// reads empty: its laid-out environment starts where it ends, and stays
// so, so the empty answer is the truth, not a read that met an exec.
func TestEmptyEnvironIsEmpty(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	cmd.Env = []string{}
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	require.Eventually(t, func() bool { mem, _ := memoryOf(cmd.Process.Pid); return mem == emptyEnviron }, waitLimit, 5*time.Millisecond,
		"sleep's environment laid out, empty")
	env, err := Environ(cmd.Process.Pid)
	require.NoError(t, err)
	assert.Empty(t, env)
	assert.Empty(t, AppendEnviron(nil, cmd.Process.Pid))
}
