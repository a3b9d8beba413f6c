package contain

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/osproc"
)

// A procs killed with its watchdog may stay a zombie (its parent has not
// reaped it): the next procs takes its cgroup for a dead one's and kills
// what it left there, instead of counting the zombie as alive.
func TestStaleCgroupOfAZombieProcsIsCleaned(t *testing.T) {
	own, err := ownCgroupDir()
	if err != nil {
		t.Skip("no cgroup v2 here: ", err)
	}
	dead := exec.Command("true")
	require.NoError(t, dead.Start())
	t.Cleanup(func() { _ = dead.Wait() })
	require.Eventually(t, func() bool { return !osproc.Live(dead.Process.Pid) }, 5*time.Second, 10*time.Millisecond)
	require.True(t, osproc.Alive(dead.Process.Pid), "a zombie until reaped")

	dir := filepath.Join(own, fmt.Sprintf("%s%d-test", cgroupPrefix, dead.Process.Pid))
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skip("cgroups not writable here: ", err)
	}
	t.Cleanup(func() { removeCgroup(dir) })
	left := exec.Command("sleep", "60")
	require.NoError(t, left.Start())
	t.Cleanup(func() { _ = left.Process.Kill() })
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(left.Process.Pid)), 0); err != nil {
		t.Skip("cannot move a process into a cgroup here: ", err)
	}

	cleanStaleCgroups(own)
	ended := make(chan error, 1)
	go func() { ended <- left.Wait() }()
	select {
	case err := <-ended:
		assert.Error(t, err, "killed")
	case <-time.After(10 * time.Second):
		t.Fatal("what the dead procs left in its cgroup still runs")
	}
	assert.NoDirExists(t, dir)
}

// TestCgroupMembersReadsNestedCgroups: the members of a run's cgroup are
// those of its cgroup.procs and of every cgroup below it (a run that is
// itself a procs makes some), though the folder is listed only when its
// link count says it has subfolders.
func TestCgroupMembersReadsNestedCgroups(t *testing.T) {
	own, err := ownCgroupDir()
	if err != nil {
		t.Skip("no cgroup v2 here: ", err)
	}
	outer := filepath.Join(own, fmt.Sprintf("%smembers-%d-test", cgroupPrefix, os.Getpid()))
	inner := filepath.Join(outer, "inner")
	if err := os.Mkdir(outer, 0o755); err != nil {
		t.Skip("cgroups not writable here: ", err)
	}
	t.Cleanup(func() { removeCgroup(outer) })
	require.NoError(t, os.Mkdir(inner, 0o755))
	place := func(dir string) int {
		cmd := exec.Command("sleep", "60")
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0); err != nil {
			t.Skip("cannot move a process into a cgroup here: ", err)
		}
		return cmd.Process.Pid
	}
	a, b := place(outer), place(inner)

	assert.ElementsMatch(t, []int{a, b}, osproc.CgroupMembers(outer))
	assert.Equal(t, []int{b}, osproc.CgroupMembers(inner))
	assert.Empty(t, osproc.CgroupMembers(filepath.Join(outer, "missing")))
}

// TestRemoveIfEmptyAsksTheKernel: a run's cgroup is removed by the look
// that asks whether it is empty (one rmdir): never while a process of it
// lives, as soon as none does, though the exited one is not yet reaped
// (a zombie is no longer a member), and then kill finds nothing to do.
// The look allocates nothing.
func TestRemoveIfEmptyAsksTheKernel(t *testing.T) {
	cg, err := newCgroupSet(NewInstance())
	if err != nil {
		t.Skip("no cgroups here: ", err)
	}
	t.Cleanup(cg.close)
	owner := Owner{Instance: "test", Name: "web", Run: 1}
	dir, err := cg.open(owner)
	require.NoError(t, err)
	cmd := exec.Command("sleep", "60")
	setCgroupFD(cmd, dir)
	require.NoError(t, cmd.Start())
	dir.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	path, ok := cg.dir(owner)
	require.True(t, ok)

	assert.False(t, cg.removeIfEmpty(owner), "a live member keeps it")
	assert.DirExists(t, path)
	// It runs on the smallest of stacks (Process.Wait's), which an
	// allocation grew in every run of a shutdown.
	assert.Zero(t, testing.AllocsPerRun(10, func() { cg.removeIfEmpty(owner) }), "the look allocates")

	require.NoError(t, cmd.Process.Kill())
	require.Eventually(t, func() bool { return !osproc.Live(cmd.Process.Pid) }, 5*time.Second, 10*time.Millisecond)
	require.True(t, osproc.Alive(cmd.Process.Pid), "a zombie until reaped")
	assert.True(t, cg.removeIfEmpty(owner), "a zombie is no member")
	assert.NoDirExists(t, path)
	_, ok = cg.dir(owner)
	assert.False(t, ok, "removed: no run of it to look at")

	had, killed := cg.kill(owner)
	assert.True(t, had, "the run had a cgroup")
	assert.False(t, killed, "nothing was left to kill")
	had, _ = cg.kill(owner)
	assert.False(t, had, "the run has ended")
}
