package osproc

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startWatched starts argv with its pidfd asked for, as contain does, and
// lets go of the os package's handle.
func startWatched(t *testing.T, stdin *os.File, argv ...string) (*exec.Cmd, *ChildExit) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin = stdin
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	exit := WatchExit(cmd.SysProcAttr)
	require.NoError(t, cmd.Start())
	require.True(t, exit.Watched(), "this kernel gives pidfds (Linux 5.3 and later)")
	pid := cmd.Process.Pid
	require.NoError(t, cmd.Process.Release())
	cmd.Process.Pid = pid
	return cmd, exit
}

// waitWatched waits for a watched child within waitLimit.
func waitWatched(t *testing.T, cmd *exec.Cmd, exit *ChildExit) syscall.WaitStatus {
	t.Helper()
	type result struct {
		ws  syscall.WaitStatus
		err error
	}
	done := make(chan result, 1)
	go func() {
		ws, err := exit.Wait(cmd.Process.Pid)
		done <- result{ws, err}
	}()
	select {
	case r := <-done:
		require.NoError(t, r.err)
		return r.ws
	case <-time.After(waitLimit):
		t.Fatalf("Wait did not return for pid %d", cmd.Process.Pid)
		return 0
	}
}

// TestChildExitTakesTheStatus: Wait returns when the child exits, not
// before, with its exit code, and reaps it.
func TestChildExitTakesTheStatus(t *testing.T) {
	childStdin, stdin, err := os.Pipe()
	require.NoError(t, err)
	defer childStdin.Close()
	cmd, exit := startWatched(t, childStdin, "sh", "-c", "read line; exit 7")
	pid := cmd.Process.Pid

	done := make(chan syscall.WaitStatus, 1)
	go func() {
		ws, err := exit.Wait(pid)
		assert.NoError(t, err)
		done <- ws
	}()
	select {
	case <-done:
		t.Fatal("Wait returned while the child runs")
	case <-time.After(200 * time.Millisecond):
	}
	require.NoError(t, stdin.Close()) // read gets EOF: the child exits 7
	select {
	case ws := <-done:
		assert.True(t, ws.Exited())
		assert.Equal(t, 7, ws.ExitStatus())
	case <-time.After(waitLimit):
		t.Fatal("Wait did not return after the child exited")
	}
	assert.False(t, Alive(pid), "reaped: no zombie is left")
}

// TestChildExitOfASignal: a child killed by a signal says which.
func TestChildExitOfASignal(t *testing.T) {
	cmd, exit := startWatched(t, nil, "sleep", "60")
	require.NoError(t, syscall.Kill(cmd.Process.Pid, syscall.SIGTERM))
	ws := waitWatched(t, cmd, exit)
	assert.True(t, ws.Signaled())
	assert.Equal(t, syscall.SIGTERM, ws.Signal())
}

// TestChildExitOfAZombie: a child that exited before the wait began is
// seen at once.
func TestChildExitOfAZombie(t *testing.T) {
	cmd, exit := startWatched(t, nil, "true")
	require.Eventually(t, func() bool { return isZombie(cmd.Process.Pid) }, waitLimit, 5*time.Millisecond)
	ws := waitWatched(t, cmd, exit)
	assert.True(t, ws.Exited())
	assert.Equal(t, 0, ws.ExitStatus())
}

// TestChildExitOfManyAtOnce: every one of many children that exit
// together is told, each with its own status, and none is left a zombie
// or holding its pidfd.
func TestChildExitOfManyAtOnce(t *testing.T) {
	const n = 300 // more than one epoll_wait takes
	exitPoller()  // its epoll instance is made once, and kept
	stdin, closeStdin, err := os.Pipe()
	require.NoError(t, err)
	pidfdsBefore := openPidfds(t)
	type child struct {
		cmd  *exec.Cmd
		exit *ChildExit
	}
	children := make([]child, n)
	for i := range children {
		cmd, exit := startWatched(t, stdin, "sh", "-c", fmt.Sprintf("read line; exit %d", i%100))
		children[i] = child{cmd, exit}
	}
	results := make(chan [2]int, n)
	for i, c := range children {
		go func() {
			ws, err := c.exit.Wait(c.cmd.Process.Pid)
			assert.NoError(t, err)
			results <- [2]int{i, ws.ExitStatus()}
		}()
	}
	// Every child reads the same pipe: closing it ends them all at once.
	require.NoError(t, closeStdin.Close())
	seen := map[int]bool{}
	deadline := time.After(waitLimit)
	for len(seen) < n {
		select {
		case r := <-results:
			assert.Equal(t, r[0]%100, r[1], "child %d", r[0])
			seen[r[0]] = true
		case <-deadline:
			t.Fatalf("%d of %d exits told", len(seen), n)
		}
	}
	for _, c := range children {
		assert.False(t, Alive(c.cmd.Process.Pid), "pid %d reaped", c.cmd.Process.Pid)
	}
	require.NoError(t, stdin.Close())
	// Other tests' os.Process handles may be closed meanwhile, by their cleanup.
	assert.LessOrEqual(t, openPidfds(t), pidfdsBefore, "every pidfd closed")
}

// openPidfds counts this process's open pidfds.
func openPidfds(t *testing.T) int {
	t.Helper()
	entries, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	n := 0
	for _, e := range entries {
		// "anon_inode:[pidfd]", or "pidfd:[…]" where pidfds have a file system.
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.Contains(target, "pidfd") {
			n++
		}
	}
	return n
}
