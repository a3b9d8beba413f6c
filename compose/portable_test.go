//go:build linux

package compose

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
	"github.com/procsdev/procs/rules"
)

// portableTests are the tests of the no-orphans guarantee that hold
// without a subreaper, a parent-death signal or cgroups: what macOS and
// FreeBSD have. The envless daemons of escape_test.go (no marker, another
// session, re-parented to init) are what that design cannot find.
// Nor can it find a daemon that rewrote its environment with its process
// title (redis and nginx do, here and on macOS):
// TestDaemonizingServersAreFailedAndStopped is not among them.
const portableTests = "^(TestNoOrphans|TestStopTakesEscapedDescendants|TestStopWaitsForTheWholeGroup|TestMarkedDaemonIsFoundAndStopped)$"

// TestNoOrphansWithoutSubreaper runs the tests above again in a test
// binary of their own, with osproc.PortableEnv set: the spawner does not
// become the subreaper, children get no parent-death signal and runs no
// cgroup. What a run left is found by walking the process table, and the
// watchdog kills the recorded groups and marked processes when procs dies.
func TestNoOrphansWithoutSubreaper(t *testing.T) {
	if os.Getenv(osproc.PortableEnv) != "" {
		t.Skip("already the portable run")
	}
	args := []string{"-test.run=" + portableTests, "-test.count=1"}
	if testing.Verbose() {
		args = append(args, "-test.v")
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), osproc.PortableEnv+"=portable")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the portable run failed:\n%s", out)
	require.NotContains(t, string(out), "no tests to run", "the portable run ran nothing:\n%s", out)
	t.Logf("%s", out)
}

// TestMarkedDaemonIsFoundAndStopped runs a service that puts a daemon in
// the background (a session of its own, its environment kept) and exits
// 0: the run fails as daemonized, naming the daemon, and the daemon is
// stopped. With a subreaper the daemon is procs' child; without, it is
// init's, found by its marker in the process table.
func TestMarkedDaemonIsFoundAndStopped(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "daemon.pid")
	te := startEngine(t, fmt.Sprintf(`
procs:
  srv:
    command: "(setsid sh -c 'echo $$$$ > %[1]s; exec sleep 300' &); until [ -s %[1]s ]; do sleep 0.01; done; exit 0"
`, pidFile), Options{NoWatchdog: true})
	res := te.waitResult("srv")
	assert.Equal(t, rules.StateFailed, res.State)
	assert.Contains(t, res.Message, "exited with code 0 and left pid")
	daemon := readPID(t, pidFile)
	assert.Contains(t, res.Message, "left pid "+strconv.Itoa(daemon))
	assert.Eventually(t, func() bool { return allGone([]int{daemon}) }, waitLimit, 20*time.Millisecond,
		"the daemon %d is left running", daemon)
}
