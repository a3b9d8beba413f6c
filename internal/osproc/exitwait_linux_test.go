package osproc

import (
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAwaitExitLeavesTheStatusToWait: AwaitExit returns when the child
// exits, not before, and leaves its exit status for exec.Cmd.Wait.
func TestAwaitExitLeavesTheStatusToWait(t *testing.T) {
	cmd := exec.Command("sh", "-c", "read line; exit 7")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	returned := make(chan struct{})
	go func() { AwaitExit(cmd.Process.Pid); close(returned) }()
	select {
	case <-returned:
		t.Fatal("AwaitExit returned while the child runs")
	case <-time.After(200 * time.Millisecond):
	}
	require.NoError(t, stdin.Close()) // read gets EOF: the child exits 7
	select {
	case <-returned:
	case <-time.After(waitLimit):
		t.Fatal("AwaitExit did not return after the child exited")
	}
	err = cmd.Wait()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, "the status was left for Wait")
	assert.Equal(t, 7, exitErr.ExitCode())
}

// TestAwaitExitOfAZombie: a child that exited before the wait began is
// seen at once.
func TestAwaitExitOfAZombie(t *testing.T) {
	cmd := exec.Command("true")
	require.NoError(t, cmd.Start())
	require.Eventually(t, func() bool { return isZombie(cmd.Process.Pid) }, waitLimit, 5*time.Millisecond)
	returned := make(chan struct{})
	go func() { AwaitExit(cmd.Process.Pid); close(returned) }()
	select {
	case <-returned:
	case <-time.After(waitLimit):
		t.Fatal("AwaitExit did not return for a child that had exited")
	}
	require.NoError(t, cmd.Wait())
}

// isZombie reports whether pid has exited and waits to be reaped.
func isZombie(pid int) bool {
	fields := statFields(pid)
	return len(fields) > 0 && fields[0] == "Z"
}

// Live says a running child is live, and the same child once it has
// exited, unreaped (a zombie), and once reaped, is not.
func TestLive(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	require.NoError(t, cmd.Start())
	pid := cmd.Process.Pid
	assert.True(t, Live(pid))
	require.NoError(t, cmd.Process.Kill())
	require.Eventually(t, func() bool { return isZombie(pid) }, waitLimit, 5*time.Millisecond)
	assert.False(t, Live(pid), "a zombie is not live")
	assert.True(t, Alive(pid), "though it still exists")
	_ = cmd.Wait()
	assert.False(t, Live(pid))
}

// TestExitPendingLeavesTheStatusToWait: ExitPending is false while the
// child runs, true once it has exited (its status still there for Wait)
// and still true once it has been reaped.
func TestExitPendingLeavesTheStatusToWait(t *testing.T) {
	cmd := exec.Command("sh", "-c", "read line; exit 7")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	pid := cmd.Process.Pid
	assert.False(t, ExitPending(pid), "the child runs")
	require.NoError(t, stdin.Close())
	require.Eventually(t, func() bool { return isZombie(pid) }, waitLimit, 5*time.Millisecond)
	assert.True(t, ExitPending(pid), "the child has exited")
	err = cmd.Wait()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, "the status was left for Wait")
	assert.Equal(t, 7, exitErr.ExitCode())
	assert.True(t, ExitPending(pid), "the child was reaped")
}
