//go:build linux

package contain

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// spawnHelperEnv makes the test binary start that many children at once
// through the spawner, print their pids and then READY, and wait to die.
const spawnHelperEnv = "PROCS_TEST_SPAWN_MANY"

// runSpawnHelperIfRequested is the helper of TestParentDeathKillsEveryChild:
// no engine, no watchdog, no cgroup, so the parent-death signal is all that
// stands between its children and a long life once it is killed.
func runSpawnHelperIfRequested() {
	n, err := strconv.Atoi(os.Getenv(spawnHelperEnv))
	if err != nil {
		return
	}
	pids := make(chan int, n)
	for range n {
		go func() {
			c, err := launch(Spec{Argv: []string{"sleep", "300"}})
			if err != nil {
				fmt.Println("launch:", err)
				os.Exit(2)
			}
			pids <- c.pid
		}()
	}
	for range n {
		fmt.Println(<-pids)
	}
	fmt.Println("READY")
	select {}
}

// TestParentDeathKillsEveryChild starts many children at once (so several
// spawner threads fork them), SIGKILLs the procs that started them, and
// checks that none outlives it.
func TestParentDeathKillsEveryChild(t *testing.T) {
	const n = 64
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), spawnHelperEnv+"="+strconv.Itoa(n))
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })

	pids := readPIDs(t, out)
	require.Len(t, pids, n)
	require.Empty(t, slices.DeleteFunc(slices.Clone(pids), func(pid int) bool { return len(alive([]int{pid})) == 1 }),
		"every child runs")
	if spawnThreads > 1 {
		assert.Greater(t, forkingThreads(cmd.Process.Pid), 1, "the children were forked by several threads")
	}

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()
	assert.Eventually(t, func() bool { return allGone(pids) }, waitLimit, 20*time.Millisecond,
		"children outlived their procs: %v", alive(pids))
	for _, pid := range pids {
		// Re-parented to this process where it is a subreaper: reap.
		var status unix.WaitStatus
		_, _ = unix.Wait4(pid, &status, unix.WNOHANG, nil)
	}
}

// readPIDs reads pid lines from the spawn helper until READY.
func readPIDs(t *testing.T, r interface{ Read([]byte) (int, error) }) []int {
	t.Helper()
	lines := make(chan []int, 1)
	go func() {
		var pids []int
		s := bufio.NewScanner(r)
		for s.Scan() {
			if s.Text() == "READY" {
				break
			}
			if pid, err := strconv.Atoi(s.Text()); err == nil {
				pids = append(pids, pid)
			}
		}
		lines <- pids
	}()
	select {
	case pids := <-lines:
		return pids
	case <-time.After(waitLimit):
		t.Fatal("no READY from the spawn helper")
		return nil
	}
}

// forkingThreads counts the threads of pid that have children.
func forkingThreads(pid int) int {
	files, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	threads := 0
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && strings.TrimSpace(string(data)) != "" {
			threads++
		}
	}
	return threads
}

// TestSpawnPoolNeverTakesItsChildrenForStrays starts children from many
// goroutines while another keeps telling strays from children, as the
// sweep does: a child is recorded before anyone can look, so none of
// them is ever a stray (the sweep would kill or reap it). Run it with
// -race -count=50.
func TestSpawnPoolNeverTakesItsChildrenForStrays(t *testing.T) {
	const n = 16
	s := getSpawner()
	stop := make(chan struct{})
	seenStrays := make(chan map[int]bool, 1)
	go func() {
		seen := map[int]bool{}
		defer func() { seenStrays <- seen }()
		for {
			s.forking.Lock()
			for _, pid := range s.strays() {
				seen[pid] = true
			}
			s.forking.Unlock()
			select {
			case <-stop:
				return
			default:
			}
		}
	}()

	children := make(chan *Process, n)
	errs := make(chan error, n)
	var starts sync.WaitGroup
	for range n {
		starts.Go(func() {
			c, err := launch(Spec{Argv: []string{"sleep", "300"}})
			if err != nil {
				errs <- err
				return
			}
			children <- c
		})
	}
	starts.Wait()
	close(stop)
	strays := <-seenStrays
	close(children)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	count := 0
	for c := range children {
		count++
		assert.True(t, s.started(c.pid), "child %d is recorded", c.pid)
		assert.False(t, strays[c.pid], "child %d was taken for a stray", c.pid)
		c.Signal(syscall.SIGKILL)
		exit := c.Wait()
		c.CloseIO()
		assert.Equal(t, syscall.SIGKILL, exit.Signal)
		assert.False(t, s.started(c.pid), "child %d is forgotten once waited for", c.pid)
	}
	assert.Equal(t, n, count)
}
