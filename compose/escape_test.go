//go:build linux

package compose

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/internal/testenv"
	"github.com/procsdev/procs/rules"
)

// daemonConfig runs two daemons that escape every way a process can: a
// double fork (re-parented to procs), a session of their own, an emptied
// environment (no owner marker); one keeps procs' pipe, one does not.
// Each writes its pid to dir.
func daemonConfig(dir string) string {
	return fmt.Sprintf(`
procs:
  daemon:
    command: |
      (env -i setsid sh -c 'echo $$$$ > %[1]s/d1.pid; exec sleep 300' &)
      (env -i setsid sh -c 'echo $$$$ > %[1]s/d2.pid; exec sleep 300' </dev/null >/dev/null 2>&1 &)
      until [ -s %[1]s/d1.pid ] && [ -s %[1]s/d2.pid ]; do sleep 0.01; done
      echo ready
      exec sleep 300
    readyPatterns: [ready]
`, dir)
}

// daemonPIDs reads the pids the daemons wrote, and checks they did escape:
// no marker, another session.
func daemonPIDs(t *testing.T, dir string) []int {
	t.Helper()
	var pids []int
	for _, name := range []string{"d1.pid", "d2.pid"} {
		pid := readPID(t, filepath.Join(dir, name))
		require.False(t, contain.Marked(pid), "the daemon %d has an emptied environment", pid)
		sid, err := unix.Getsid(pid)
		require.NoError(t, err)
		require.Equal(t, pid, sid, "the daemon %d leads a session of its own", pid)
		pids = append(pids, pid)
	}
	return pids
}

// startEngineHelper runs file in a procs of its own (a child process) and
// waits until every process is ready.
func startEngineHelper(t *testing.T, file string, env ...string) *exec.Cmd {
	t.Helper()
	return startEngineHelperFrom(t, os.Args[0], file, env...)
}

// startHelperOn writes config(dir) as procs.yaml of a fresh folder dir
// and runs it in a helper process (startEngineHelper) with env added.
func startHelperOn(t *testing.T, config func(dir string) string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(config(dir)), 0o644))
	return startEngineHelper(t, file, env...), dir
}

// startEngineHelperFrom is startEngineHelper with the test binary at
// binary, which may just have been written: a fork elsewhere in this
// process may hold it open for writing a moment longer (ETXTBSY).
func startEngineHelperFrom(t *testing.T, binary, file string, env ...string) *exec.Cmd {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		cmd := exec.Command(binary, "-test.run=^$")
		cmd.Env = append(append(os.Environ(), engineHelperEnv+"="+file), env...)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		err = cmd.Start()
		if err == nil {
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			waitForLine(t, out, "READY")
			return cmd
		}
		if !errors.Is(err, syscall.ETXTBSY) || time.Now().After(deadline) {
			require.NoError(t, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestEnvlessDaemonsDoNotEscape ends a procs running escaped daemons in
// every way it can end, with cgroups and without (the fallback): none of
// them outlives it.
func TestEnvlessDaemonsDoNotEscape(t *testing.T) {
	ends := map[string]syscall.Signal{"SIGINT": syscall.SIGINT, "SIGTERM": syscall.SIGTERM, "SIGKILL": syscall.SIGKILL, "down": syscall.SIGUSR1}
	for _, mode := range []string{"cgroups", "fallback"} {
		for name, sig := range ends {
			t.Run(mode+"/"+name, func(t *testing.T) {
				if mode == "cgroups" {
					skipWithoutCgroups(t)
				}
				var env []string
				if mode == "fallback" {
					env = append(env, contain.NoCgroupsVar+"=off")
				}
				cmd, dir := startHelperOn(t, daemonConfig, env...)
				daemons := daemonPIDs(t, dir)

				require.NoError(t, cmd.Process.Signal(sig))
				_ = cmd.Wait()
				assert.Eventually(t, func() bool { return allGone(daemons) }, waitLimit, 20*time.Millisecond,
					"daemons left behind after %s: %v", name, alive(daemons))
			})
		}
	}
}

// stopOnceReady runs config(dir) for a fresh folder dir, with procs going
// on after the stop, waits until name is ready, reads the pids of what its
// run left with pidsOf, then stops name and waits until it is stopped; it
// returns those pids.
func stopOnceReady(t *testing.T, config func(dir string) string, name string, pidsOf func(t *testing.T, dir string) []int) []int {
	t.Helper()
	dir := t.TempDir()
	te := startEngine(t, config(dir), Options{NoWatchdog: true})
	te.waitState(name, rules.StateReady)
	pids := pidsOf(t, dir)
	_, err := te.Stop(name)
	require.NoError(t, err)
	te.waitState(name, rules.StateStopped)
	return pids
}

// TestStopTakesEnvlessDaemons stops one process while procs goes on: the
// daemons its run started go with it (its cgroup).
func TestStopTakesEnvlessDaemons(t *testing.T) {
	skipWithoutCgroups(t)
	daemons := stopOnceReady(t, daemonConfig, "daemon", daemonPIDs)
	assert.True(t, allGone(daemons), "left behind by stop: %v", alive(daemons))
	// Killed with the cgroup, they were re-parented to procs (this test's
	// process): the sweep the stop asked for reaps them, so no zombie stays.
	assert.Eventually(t, func() bool {
		for _, pid := range daemons {
			if syscall.Kill(pid, 0) == nil {
				return false
			}
		}
		return true
	}, waitLimit, 20*time.Millisecond, "zombies of the killed daemons are never reaped")
}

// TestStopReapsWhatTheRunLeftInItsGroup: a background child of the run,
// in its process group, outlives its parent by an instant on a stop and
// is re-parented to procs; it exits with the group, and the stop reaps it
// from the group alone (a run that never left its group needs no look at
// all of procs' children), so no zombie stays.
func TestStopReapsWhatTheRunLeftInItsGroup(t *testing.T) {
	skipWithoutCgroups(t)
	config := func(dir string) string {
		return fmt.Sprintf(`
procs:
  web:
    command: sleep 300 & echo $! > %s/bg.pid; echo ready; exec sleep 300
    readyPatterns: [ready]
`, dir)
	}
	bg := stopOnceReady(t, config, "web", func(t *testing.T, dir string) []int {
		return []int{readPID(t, filepath.Join(dir, "bg.pid"))}
	})[0]
	assert.Eventually(t, func() bool { return syscall.Kill(bg, 0) != nil }, waitLimit, 20*time.Millisecond,
		"the run's background child %d is left a zombie", bg)
}

// TestNextProcsKillsWhatADeadOneLeft SIGKILLs a procs and its watchdog
// together: nothing is left to kill their daemons then, so the next procs
// started in the same cgroup does, from the cgroup they were left in.
func TestNextProcsKillsWhatADeadOneLeft(t *testing.T) {
	skipWithoutCgroups(t)
	cmd, dir := startHelperOn(t, daemonConfig)
	daemons := daemonPIDs(t, dir)
	watchdog := watchdogOf(t, cmd.Process.Pid)

	require.NoError(t, syscall.Kill(watchdog, syscall.SIGKILL))
	require.NoError(t, cmd.Process.Kill())
	_ = cmd.Wait()
	require.Eventually(t, func() bool { return len(alive([]int{watchdog})) == 0 }, waitLimit, 20*time.Millisecond)
	require.NotEmpty(t, alive(daemons), "the daemons outlive a procs and a watchdog both killed")

	te := startEngine(t, "procs:\n  next:\n    command: [sleep, '300']\n", Options{NoWatchdog: true})
	te.waitState("next", rules.StateStarting)
	assert.Eventually(t, func() bool { return allGone(daemons) }, waitLimit, 20*time.Millisecond,
		"daemons the next procs left: %v", alive(daemons))
}

// moverConfig runs a daemon that leaves its run's process group and moves
// itself out of procs' cgroups, into the cgroup procs itself runs in
// (which procs' user may write), keeping the run's marker; it writes its
// pid to dir/moved.pid, or dir/failed when the move is refused. It does
// not hold the run's output: one that did would keep the run reading it
// for outputEndGrace first. The mount point of cgroup v2 is the fifth
// field of its line in mountinfo; the run's cgroup is two levels below
// procs' own. procs reads $$ in a command as $.
func moverConfig(dir string) string {
	return fmt.Sprintf(`
procs:
  mover:
    command: |
      setsid sh -c '
        mount=$(awk '"'"'{for (i = 1; i <= NF; i++) if ($i == "-") { if ($(i+1) == "cgroup2") print $5; break }}'"'"' /proc/self/mountinfo)
        run=$(sed -n "s/^0:://p" /proc/self/cgroup)
        if echo $$$$ > "$mount$(dirname "$(dirname "$run")")/cgroup.procs"; then echo $$$$ > %[1]s/moved.pid; else echo no > %[1]s/failed; fi
        exec sleep 300' </dev/null >/dev/null 2>&1 &
      until [ -s %[1]s/moved.pid ] || [ -e %[1]s/failed ]; do sleep 0.01; done
      echo ready
      exec sleep 300
    readyPatterns: [ready]
`, dir)
}

// moverPID reads the pid moverConfig's daemon wrote, and checks that it
// is outside procs' cgroups and still marked.
func moverPID(t *testing.T, dir string) int {
	t.Helper()
	file := filepath.Join(dir, "moved.pid")
	if _, err := os.Stat(file); err != nil {
		testenv.Missing(t, "a process here cannot move itself into the cgroup procs runs in")
	}
	pid := readPID(t, file)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	cgroup, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	require.NoError(t, err)
	require.NotContains(t, string(cgroup), "/procs-", "the daemon left procs' cgroups")
	require.True(t, contain.Marked(pid), "the daemon kept the run's marker")
	return pid
}

// TestCleanShutdownTakesWhatLeftItsCgroups: the daemon of moverConfig is
// in no cgroup or group procs stops; the last look of a clean shutdown,
// through every process's environment, finds it by its marker.
func TestCleanShutdownTakesWhatLeftItsCgroups(t *testing.T) {
	skipWithoutCgroups(t)
	cmd, dir := startHelperOn(t, moverConfig)
	pid := moverPID(t, dir)

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd.Wait())
	assert.Eventually(t, func() bool { return allGone([]int{pid}) }, waitLimit, 20*time.Millisecond,
		"the daemon outside procs' cgroups outlived a clean shutdown")
}

// TestStopTakesWhatLeftItsCgroups: a stop while procs goes on (procs stop,
// procs restart) takes the daemon of moverConfig too; it lived on until
// procs exited, and a restart ran the old run's daemon beside the new.
func TestStopTakesWhatLeftItsCgroups(t *testing.T) {
	skipWithoutCgroups(t)
	pid := stopOnceReady(t, moverConfig, "mover", func(t *testing.T, dir string) []int {
		return []int{moverPID(t, dir)}
	})[0]
	assert.Eventually(t, func() bool { return allGone([]int{pid}) }, 2*time.Second, 20*time.Millisecond,
		"the daemon outside the run's cgroup outlived its stop")
}

// watchdogOf finds the watchdog among the children of a procs.
func watchdogOf(t *testing.T, pid int) int {
	t.Helper()
	for _, child := range rules.ChildrenOf(pid) {
		env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", child))
		if strings.Contains(string(env), contain.WatchdogVar+"=1") {
			return child
		}
	}
	t.Fatalf("procs %d has no watchdog", pid)
	return 0
}

func skipWithoutCgroups(t *testing.T) {
	t.Helper()
	if err := contain.CgroupsAvailable(); err != nil {
		testenv.Missing(t, fmt.Sprintf("cgroups v2 are not writable here: %v", err))
	}
}
