package contain

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/osproc"
)

// markedReads is how many reads of every process's marker were made.
func markedReads() int {
	markedScan.mu.Lock()
	defer markedScan.mu.Unlock()
	return markedScan.reads
}

// TestFindMarkedSeesAProcessStartedAfterTheLastRead: a look shares a read
// only if the read began after it was asked, so a process started a moment
// ago is always in it.
func TestFindMarkedSeesAProcessStartedAfterTheLastRead(t *testing.T) {
	marker := NewInstance() + ":late:1:"
	assert.Empty(t, FindMarked(marker))
	cmd := exec.Command("sleep", "60")
	cmd.Env = append(os.Environ(), OwnerVar+"="+marker)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	assert.Equal(t, []int{cmd.Process.Pid}, FindMarked(marker))
}

// TestFindMarkedReadsAnEnvironmentLargerThanItsBuffer: the look reads
// each environment into one buffer it reuses; a process whose environment
// outgrows it (a CI job's, tens of kilobytes) is read to its end, where
// the marker may be, and the processes read after it with the grown buffer
// are not mistaken for it.
func TestFindMarkedReadsAnEnvironmentLargerThanItsBuffer(t *testing.T) {
	marker := NewInstance() + ":big:1:"
	filler := "PROCS_TEST_FILLER=" + strings.Repeat("x", 3*environBuffer)
	start := func(env ...string) int {
		cmd := exec.Command("sleep", "60")
		cmd.Env = env
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		return cmd.Process.Pid
	}
	big := start(filler, OwnerVar+"="+marker)
	small := start("PATH=" + os.Getenv("PATH"))
	markers := markersAmong([]int{big, small})
	assert.Equal(t, map[int]string{big: marker}, markers)
	assert.Equal(t, []int{big}, FindMarked(marker))
}

// TestStopsWithoutCgroupsShareTheirLooks: without a cgroup each stop looks
// for the run's processes outside its group by reading every process's
// environment. Runs stopped together (a shutdown) share those reads: thirty
// stops at once made thirty reads, one after another.
func TestStopsWithoutCgroupsShareTheirLooks(t *testing.T) {
	t.Setenv(NoCgroupsVar, "off")
	instance := NewInstance()
	c, err := New(instance, Options{})
	require.NoError(t, err)
	defer c.Close()
	const runs = 30
	procs := make([]*Process, runs)
	for i := range procs {
		procs[i] = startMarked(t, c, Owner{Instance: instance, Name: fmt.Sprintf("p%d", i), Run: 1}, "exec sleep 60")
		defer procs[i].CloseIO()
	}
	require.Eventually(t, func() bool { return len(FindMarked(instance+":")) == runs }, waitLimit, 20*time.Millisecond)

	before := markedReads()
	var stops sync.WaitGroup
	// The stops begin together, as in a shutdown; a read under way holds
	// the ones that ask meanwhile, which share the next. The first read
	// waits here until every stop has asked for its look: left to the
	// scheduler, a few stops came late, each to a read of its own (2 to
	// 3 reads mostly, up to 18 in 100 runs).
	asked := markedScan.asks.Load()
	markedScan.mu.Lock()
	for _, p := range procs {
		stops.Go(func() { p.SignalRun(syscall.SIGTERM) })
	}
	require.Eventually(t, func() bool { return markedScan.asks.Load()-asked >= runs }, waitLimit, time.Millisecond,
		"every stop asked for its look")
	markedScan.mu.Unlock()
	stops.Wait()
	reads := markedReads() - before
	assert.LessOrEqual(t, reads, runs/3, "reads of every process's environment for %d stops at once", runs)
	assert.Positive(t, reads, "each stop looks outside its group")
	for _, p := range procs {
		assert.Equal(t, syscall.SIGTERM, p.Wait().Signal)
		p.End(time.Time{}, nil)
	}
}

// TestStopLooksOutsideTheGroupOnceTheMainProcessExits: a stop of a run
// with a cgroup looks for the run's processes outside its group (a setsid
// daemon) as soon as the main process has exited, not at the look's timer:
// the daemon mostly holds the run's output open, and the run reads it to
// the end before it ends. The timer is made an hour here, so only the exit
// can bring the look; where the cgroup is empty at the exit, it is removed
// then, and End finds nothing to do.
func TestStopLooksOutsideTheGroupOnceTheMainProcessExits(t *testing.T) {
	c, instance := withLookDelay(t, time.Hour)
	owner := Owner{Instance: instance, Name: "wrapper", Run: 1}
	p := startMarked(t, c, owner, "setsid sleep 300 & exec sleep 300")
	defer p.CloseIO()
	daemon := daemonOf(t, p, owner, func() bool { return true })
	p.SignalRun(syscall.SIGTERM)
	assert.Equal(t, syscall.SIGTERM, p.Wait().Signal)
	assert.Eventually(t, func() bool { return allGone(daemon) }, waitLimit, 20*time.Millisecond,
		"the daemon %v did not get the stop's signal when the main process exited", daemon)
	assert.False(t, p.End(time.Now().Add(waitLimit), nil), "nothing was left to kill")

	quiet := Owner{Instance: instance, Name: "plain", Run: 1}
	q := startMarked(t, c, quiet, "exec sleep 300")
	defer q.CloseIO()
	dir := filepath.Join(getSpawner().engine(quiet).cgroups.base, runCgroupName(quiet))
	require.DirExists(t, dir, "the run's cgroup")
	q.SignalRun(syscall.SIGTERM)
	q.Wait()
	assert.NoDirExists(t, dir, "the empty cgroup is removed when the main process exits")
	assert.False(t, q.End(time.Now().Add(waitLimit), nil))
}

// TestStopLooksAtItsTimerOnlyWhileTheMainProcessRuns: the look's timer is
// for a main process that waits for what it started. A main process that
// has exited, but whose exit procs has not taken in yet (a loaded machine
// stopping two hundred runs), is not waiting: its timer leaves the look
// to the exit, which makes it as the run's cgroup then is. Here the timer
// is a millisecond, the main process has exited before the stop, and the
// test takes its exit in (Wait) only after the timer's turn: the daemon
// outside the group gets the stop's signal then, not at the timer.
func TestStopLooksAtItsTimerOnlyWhileTheMainProcessRuns(t *testing.T) {
	c, instance := withLookDelay(t, time.Millisecond)
	owner := Owner{Instance: instance, Name: "launcher", Run: 1}
	p := startMarked(t, c, owner, "setsid sleep 300 & echo started")
	defer p.CloseIO()
	daemon := daemonOf(t, p, owner, func() bool { return osproc.ExitPending(p.PID()) })
	p.SignalRun(syscall.SIGTERM)
	require.Eventually(t, func() bool {
		p.outside.mu.Lock()
		defer p.outside.mu.Unlock()
		return p.outside.mainExited == nil
	}, waitLimit, time.Millisecond, "the look's timer had its turn")
	assert.True(t, p.outside.pending(), "the timer left the look to the exit")
	assert.Equal(t, daemon, alive(daemon), "the daemon got the stop's signal at the timer")

	p.Wait()
	assert.Eventually(t, func() bool { return allGone(daemon) }, waitLimit, 20*time.Millisecond,
		"the daemon %v did not get the stop's signal when the exit was taken in", daemon)
	assert.False(t, p.End(time.Now().Add(waitLimit), nil), "nothing was left to kill")
}

// withLookDelay makes the stops' look outside the group due delay after
// their signals, for the test, and returns a containment with cgroups (the
// look is deferred only there) and its instance.
func withLookDelay(t *testing.T, delay time.Duration) (Containment, string) {
	t.Helper()
	if err := CgroupsAvailable(); err != nil {
		t.Skipf("no cgroups here: %v", err)
	}
	saved := outsideLookDelay
	outsideLookDelay = delay
	t.Cleanup(func() { outsideLookDelay = saved })
	instance := NewInstance()
	c, err := New(instance, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c, instance
}

// daemonOf waits until p's run has one process besides its main process,
// a daemon it started that has left the run's process group (setsid is
// done: before, the group's signal reaches it), and ready says the rest of
// the scene is set, and returns the daemon's pid.
func daemonOf(t *testing.T, p *Process, owner Owner, ready func() bool) []int {
	t.Helper()
	var daemon []int
	require.Eventually(t, func() bool {
		daemon = slices.DeleteFunc(FindMarked(owner.String()), func(pid int) bool { return pid == p.PID() })
		if len(daemon) != 1 {
			return false
		}
		group, err := osproc.Getpgid(daemon[0])
		return err == nil && group != p.PID() && ready()
	}, waitLimit, 20*time.Millisecond, "the daemon outside the group")
	return daemon
}
