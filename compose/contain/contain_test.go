//go:build linux

package contain

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/procsdev/procs/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOwnerNamesItsRun(t *testing.T) {
	run1 := Owner{Instance: "123-456", Name: "web", Run: 1}
	run10 := Owner{Instance: "123-456", Name: "web", Run: 10}
	assert.Equal(t, "123-456:web:1:", run1.String())
	assert.False(t, strings.HasPrefix(run10.String(), run1.String()), "run 1's marker is no prefix of run 10's")
	assert.Equal(t, "run-web-1", runCgroupName(run1))
	assert.Equal(t, "run-web-10", runCgroupName(run10))
}

// startMarked starts command through c as the run owner, with its marker.
func startMarked(t *testing.T, c Containment, owner Owner, command string) *Process {
	t.Helper()
	p, err := c.Start(Spec{
		Argv: []string{"sh", "-c", command}, Owner: owner,
		Env: append(os.Environ(), OwnerVar+"="+owner.String()),
	})
	require.NoError(t, err)
	return p
}

// TestEndTakesTheWholeTree starts a tree whose processes escape its group
// (a session of their own, a double fork), stops its root, and ends it:
// nothing of it is left, with cgroups and without (the marker and the sweep).
func TestEndTakesTheWholeTree(t *testing.T) {
	for _, cgroups := range []string{"", "off"} {
		t.Run("cgroups="+cgroups, func(t *testing.T) {
			t.Setenv(NoCgroupsVar, cgroups)
			instance := NewInstance()
			c, err := New(instance, Options{})
			require.NoError(t, err)
			defer c.Close()
			owner := Owner{Instance: instance, Name: "tree", Run: 1}
			p := startMarked(t, c, owner, "setsid sh -c 'sleep 300' & (setsid sleep 300 &) ; exec sleep 300")
			defer p.CloseIO()
			var marked []int
			require.Eventually(t, func() bool {
				marked = FindMarked(owner.String())
				return len(marked) >= 3
			}, waitLimit, 20*time.Millisecond, "the root and both escaped sleeps")

			p.Signal(syscall.SIGTERM)
			exit := p.Wait()
			assert.Equal(t, syscall.SIGTERM, exit.Signal)
			p.End(time.Time{}, nil)
			assert.Eventually(t, func() bool { return allGone(marked) }, waitLimit, 20*time.Millisecond,
				"left behind by End: %v", alive(marked))
		})
	}
}

// TestDaemonsSaysWhatARunLeft runs a tree that puts a daemon in the
// background and exits 0: Daemons names it, and stopping them ends it.
func TestDaemonsSaysWhatARunLeft(t *testing.T) {
	instance := NewInstance()
	c, err := New(instance, Options{})
	require.NoError(t, err)
	defer c.Close()
	owner := Owner{Instance: instance, Name: "srv", Run: 1}
	p := startMarked(t, c, owner, "(setsid sleep 300 &); exit 0")
	defer p.CloseIO()
	exit := p.Wait()
	require.Equal(t, 0, exit.Code)

	// setsid execs sleep a moment after the shell has exited: until then
	// the daemon's command line is setsid's.
	var left Daemons
	var daemon *rules.Daemon
	require.Eventually(t, func() bool {
		left = p.Daemons()
		daemon = left.Describe()
		return daemon != nil && strings.Contains(daemon.Command, "sleep")
	}, waitLimit, 10*time.Millisecond, "the daemon is found, running sleep: %+v", daemon)
	left.Stop(syscall.SIGTERM, time.Second)
	p.End(time.Time{}, nil)
	assert.Eventually(t, func() bool { return allGone([]int{daemon.PID}) }, waitLimit, 20*time.Millisecond,
		"the daemon %d is left running", daemon.PID)
}

// TestWatchdogStopsTrackedGroupsAtEOF feeds the watchdog a tracked group
// and ends its input, as procs dying does: the group is stopped.
func TestWatchdogStopsTrackedGroupsAtEOF(t *testing.T) {
	p, err := launch(Spec{Argv: []string{"sleep", "300"}})
	require.NoError(t, err)
	defer p.CloseIO()
	exited := make(chan int, 1)
	go func() { exited <- int(p.Wait().Signal) }()
	runWatchdog(strings.NewReader(fmt.Sprintf("I %s\n+%d\n", NewInstance(), p.PID())))
	select {
	case sig := <-exited:
		assert.Equal(t, int(syscall.SIGTERM), sig)
	case <-time.After(waitLimit):
		p.Signal(syscall.SIGKILL)
		t.Fatal("the tracked group outlived the watchdog's EOF")
	}
}

// TestNoInputGivesStdinItsEnd: a run started with NoInput reads the end of
// its stdin at once, as an agent CLI's one-shot JSON mode must before it
// starts; with a pipe nobody closes, cat would wait for ever.
func TestNoInputGivesStdinItsEnd(t *testing.T) {
	instance := NewInstance()
	c, err := New(instance, Options{})
	require.NoError(t, err)
	defer c.Close()
	p, err := c.Start(Spec{Argv: []string{"cat"}, Dir: t.TempDir(), Env: os.Environ(),
		Owner: Owner{Instance: instance, Name: "cat", Run: 1}, NoInput: true})
	require.NoError(t, err)
	defer p.CloseIO()
	exited := make(chan rules.Exit, 1)
	go func() { exited <- p.Wait() }()
	select {
	case exit := <-exited:
		assert.Equal(t, 0, exit.Code)
	case <-time.After(waitLimit):
		p.End(time.Time{}, nil)
		t.Fatal("cat still waits for its stdin")
	}
}
