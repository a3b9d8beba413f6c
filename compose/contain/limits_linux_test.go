package contain

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/internal/testenv"
)

// needLimits skips the test (fails it under PROCS_REQUIRE_E2E=1) where
// the kernel cannot enforce l here, saying why.
func needLimits(t *testing.T, l Limits) {
	t.Helper()
	if err := LimitsAvailable(l); err != nil {
		testenv.Missing(t, err.Error())
	}
}

// startLimited starts command through a new containment, as one run
// held to l.
func startLimited(t *testing.T, l Limits, command string) (*Process, Owner, Containment) {
	t.Helper()
	instance := NewInstance()
	c, err := New(instance, Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	owner := Owner{Instance: instance, Name: "limited", Run: 1}
	p, err := c.Start(Spec{
		Argv: []string{"sh", "-c", command}, Owner: owner, Limits: l,
		Env: append(os.Environ(), OwnerVar+"="+owner.String()),
	})
	require.NoError(t, err)
	t.Cleanup(p.CloseIO)
	return p, owner, c
}

// A run with memory: 64M that allocates 200 MiB is killed by the kernel,
// and its exit says so, with the limit and the peak; its cgroups go with it.
func TestMemoryLimitKillIsTold(t *testing.T) {
	limits := Limits{Memory: 64 << 20}
	needLimits(t, limits)
	python := testenv.LookPath(t, "python3")
	p, owner, c := startLimited(t, limits, "exec "+python+` -c 'b = bytearray(200 * 2**20); print("allocated", len(b))'`)
	require.NotNil(t, p.limits, "the run has its memory cgroup")
	dirs := append([]string{p.limits.memory}, p.limits.v1Dirs...)
	exit := p.Wait()
	assert.Equal(t, syscall.SIGKILL, exit.Signal)
	require.NotNil(t, exit.MemoryLimit, "the kernel killed at the limit")
	assert.Equal(t, int64(64<<20), exit.MemoryLimit.Limit)
	assert.InDelta(t, 64<<20, exit.MemoryLimit.Peak, 1<<20, "it went as far as the limit")
	p.End(time.Time{}, nil)
	for _, dir := range dirs {
		assert.NoDirExists(t, dir, "the run's cgroup is removed with it")
	}
	engineDirs := getSpawner().engine(owner).limitsIfMade().v1Dirs()
	require.NoError(t, c.Close())
	for _, dir := range engineDirs {
		assert.NoDirExists(t, dir, "the engine's cgroup v1 folder is removed when it closes")
	}
}

// A shell whose child the kernel killed at the limit exits 137: that is
// the memory verdict too.
func TestMemoryLimitKillOfAChildIsTold(t *testing.T) {
	limits := Limits{Memory: 64 << 20}
	needLimits(t, limits)
	p, _, _ := startLimited(t, limits, "head -c 200M /dev/zero | tail; exit $?")
	exit := p.Wait()
	assert.Equal(t, 137, exit.Code)
	require.NotNil(t, exit.MemoryLimit)
	assert.Equal(t, int64(64<<20), exit.MemoryLimit.Limit)
	p.End(time.Time{}, nil)
}

// A run killed by a person (not at its limit) is no memory verdict.
func TestKillWithinMemoryLimitIsNoMemoryVerdict(t *testing.T) {
	limits := Limits{Memory: 64 << 20}
	needLimits(t, limits)
	p, _, _ := startLimited(t, limits, "exec sleep 60")
	p.Signal(syscall.SIGKILL)
	exit := p.Wait()
	assert.Equal(t, syscall.SIGKILL, exit.Signal)
	assert.Nil(t, exit.MemoryLimit)
	p.End(time.Time{}, nil)
}

// cpu: 0.2 holds a busy loop near a fifth of one core: its CPU time over
// 3 s is 10 to 30 % of that time; the throttled time grows meanwhile.
func TestCPULimitHoldsABusyLoop(t *testing.T) {
	limits := Limits{CPU: 0.2}
	needLimits(t, limits)
	p, owner, _ := startLimited(t, limits, "while :; do :; done")
	defer p.End(time.Time{}, nil)
	_, ok := RunCPUThrottled(owner)
	require.True(t, ok, "the run's cpu.stat is read")

	before, at := cpuTime(t, p.PID()), time.Now()
	time.Sleep(3 * time.Second)
	used, elapsed := cpuTime(t, p.PID())-before, time.Since(at)
	percent := 100 * used.Seconds() / elapsed.Seconds()
	t.Logf("busy loop under cpu: 0.2 used %.1f%% of one core over %s", percent, elapsed.Round(time.Millisecond))
	assert.InDelta(t, 20, percent, 10, "cpu: 0.2 holds it near 20%%")
	throttled, ok := RunCPUThrottled(owner)
	require.True(t, ok)
	assert.Greater(t, throttled, time.Second, "held for most of the 3 s")
	p.Signal(syscall.SIGKILL)
	p.Wait()
}

// cpuTime is the CPU time pid has used (user and system), from
// /proc/PID/stat.
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	require.NoError(t, err)
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	utime, err := strconv.ParseInt(fields[11], 10, 64)
	require.NoError(t, err)
	stime, err := strconv.ParseInt(fields[12], 10, 64)
	require.NoError(t, err)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// pids: 20 stops a loop that starts 50 sleeps at 20 processes.
func TestPidsLimitStopsForks(t *testing.T) {
	limits := Limits{Pids: 20}
	needLimits(t, limits)
	p, owner, _ := startLimited(t, limits, "for i in $(seq 50); do sleep 60 & done 2>/dev/null; echo started; sleep 60")
	defer p.End(time.Time{}, nil)
	require.Eventually(t, func() bool { return len(FindMarked(owner.String())) >= 19 }, waitLimit, 20*time.Millisecond)
	time.Sleep(200 * time.Millisecond) // what could still fork has
	n := len(FindMarked(owner.String()))
	t.Logf("%d processes of the run under pids: 20", n)
	assert.LessOrEqual(t, n, 20)
	p.Signal(syscall.SIGKILL)
	p.Wait()
}

// Where cgroups are turned off, limits are not enforced and the reason
// says which and why, in one sentence.
func TestLimitsNotAvailableSaysWhy(t *testing.T) {
	t.Setenv(NoCgroupsVar, "off")
	err := LimitsAvailable(Limits{Memory: 1 << 30, CPU: 1.5})
	var limitsErr *LimitsError
	require.ErrorAs(t, err, &limitsErr)
	assert.Equal(t, []string{"memory", "cpu"}, limitsErr.Limits)
	assert.Equal(t, "memory and cpu limits cannot be enforced here (cgroups turned off by PROCS_CGROUPS): they are ignored", err.Error())
	assert.NoError(t, LimitsAvailable(Limits{}), "no limit, nothing to say")

	// The run starts without them.
	p, _, _ := startLimited(t, Limits{Memory: 64 << 20}, "exit 3")
	assert.Nil(t, p.limits)
	assert.Equal(t, 3, p.Wait().Code)
	p.End(time.Time{}, nil)
}

// The message names the controllers missing.
func TestLimitsErrorWords(t *testing.T) {
	ls := &limitSet{whyNot: map[string]string{"memory": "no writable cgroup memory controller", "cpu": "no writable cgroup cpu controller"}}
	assert.EqualError(t, ls.missing(Limits{Memory: 1, CPU: 1, Pids: 1}),
		"memory and cpu limits cannot be enforced here (no writable cgroup memory/cpu controller): they are ignored")
	assert.EqualError(t, ls.missing(Limits{CPU: 1}),
		"cpu limit cannot be enforced here (no writable cgroup cpu controller): it is ignored")
	assert.NoError(t, ls.missing(Limits{Pids: 1}))
}

// A procs killed with its watchdog leaves its cgroup v1 folders: the next
// procs with limits removes them, the live ones' left alone.
func TestStaleLimitCgroupsAreCleaned(t *testing.T) {
	needLimits(t, Limits{Memory: 64 << 20})
	own, err := ownV1Dir("memory")
	if err != nil {
		t.Skip("memory limits are cgroup v2 here: the stale v2 cgroups are cleaned by TestStaleCgroupOfAZombieProcsIsCleaned")
	}
	dead := filepath.Join(own, cgroupPrefix+"999999999-1")
	require.NoError(t, os.Mkdir(dead, 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dead, "run-web-1"), 0o755))
	t.Cleanup(func() { removeCgroup(dead) })
	require.False(t, osproc.Live(999999999))
	p, _, _ := startLimited(t, Limits{Memory: 64 << 20}, "exit 0")
	p.Wait()
	p.End(time.Time{}, nil)
	assert.NoDirExists(t, dead)
}
