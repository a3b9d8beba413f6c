package osproc

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Awake: a sleeping process is awake; stopped (SIGSTOP), it is not, and
// again once continued; a zombie is not.
func TestAwake(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	require.NoError(t, cmd.Start())
	pid := cmd.Process.Pid
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	assert.True(t, Awake(pid))
	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	assert.Eventually(t, func() bool { return !Awake(pid) }, 5*time.Second, 10*time.Millisecond)
	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
	assert.Eventually(t, func() bool { return Awake(pid) }, 5*time.Second, 10*time.Millisecond)
	require.NoError(t, cmd.Process.Kill())
	assert.Eventually(t, func() bool { return !Awake(pid) }, 5*time.Second, 10*time.Millisecond, "a zombie")
	assert.False(t, Awake(0))
}
