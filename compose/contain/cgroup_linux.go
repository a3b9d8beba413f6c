package contain

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/procsdev/procs/internal/osproc"
)

// NoCgroupsVar turns the cgroups off (PROCS_CGROUPS=off), for a system
// where they misbehave and for the tests of the fallback.
const NoCgroupsVar = "PROCS_CGROUPS"

// cgroupPrefix starts the name of the cgroup of one procs; the rest is its
// instance ID, which starts with its pid.
const cgroupPrefix = "procs-"

// cgroupSet puts each run of one engine in a cgroup v2 of its own, under
// one cgroup per engine. Killing a run's cgroup kills every process the run
// started, whatever it did to escape: a new session, a double fork, an
// emptied environment. The engine's cgroup is a child of the cgroup procs
// runs in, so it needs no privilege beyond owning that one (a delegated
// systemd scope, a container's root).
type cgroupSet struct {
	base string
	// mu is a leaf of the spawner's lock order (see spawner).
	mu sync.Mutex
	// runs holds the runs that have had a cgroup, until their end.
	runs map[Owner]runCgroup
}

// newCgroupSet creates the cgroup of an engine, or returns nil (and why)
// when cgroups v2 are not available or not writable here.
func newCgroupSet(instance string) (*cgroupSet, error) {
	if os.Getenv(NoCgroupsVar) == "off" {
		return nil, errors.New("turned off by " + NoCgroupsVar)
	}
	if !osproc.Features().Cgroups {
		return nil, errors.New("turned off by " + osproc.PortableEnv)
	}
	own, err := ownCgroupDir()
	if err != nil {
		return nil, err
	}
	cleanStaleCgroups(own)
	base := filepath.Join(own, cgroupPrefix+instance)
	if err := os.Mkdir(base, 0o755); err != nil {
		return nil, err
	}
	c := &cgroupSet{base: base, runs: make(map[Owner]runCgroup)}
	if err := c.probe(); err != nil {
		removeCgroup(base)
		return nil, err
	}
	return c, nil
}

// probe starts a process into a cgroup of the set, where creating a cgroup
// can be allowed but moving a process into it not. The process is cloned
// into the cgroup and then fails to execute a program that does not exist:
// that it got as far as exec (ENOENT) is the answer; nothing runs.
func (c *cgroupSet) probe() error {
	dir := filepath.Join(c.base, "probe")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	defer removeCgroup(dir)
	fd, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer fd.Close()
	attr := &unix.SysProcAttr{UseCgroupFD: true, CgroupFD: int(fd.Fd())}
	pid, err := syscall.ForkExec(filepath.Join(dir, "no-such-program"), nil, &syscall.ProcAttr{Sys: attr})
	switch {
	case errors.Is(err, syscall.ENOENT):
		return nil
	case err != nil:
		return err
	}
	var status unix.WaitStatus
	_, _ = unix.Wait4(pid, &status, 0, nil)
	return nil
}

// ownCgroupDir is the folder of the cgroup v2 this process is in.
func ownCgroupDir() (string, error) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	own := ""
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "0::"); ok {
			own = rest
		}
	}
	if own == "" {
		return "", errors.New("not in a cgroup v2")
	}
	mount, root, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, own)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("cgroup %s is outside the mounted hierarchy", own)
	}
	return filepath.Join(mount, rel), nil
}

// cgroup2Mount finds where the cgroup v2 hierarchy is mounted, and which of
// its folders is the root of that mount.
func cgroup2Mount() (mount, root string, err error) {
	mount, root, found, err := findMount(func(fields, fs []string) bool { return fs[0] == "cgroup2" })
	if err == nil && !found {
		err = errors.New("no cgroup v2 mounted")
	}
	return mount, root, err
}

// findMount reads /proc/self/mountinfo for the first mount that match
// accepts, given the fields left of its " - " (ID PARENT MAJ:MIN ROOT
// MOUNTPOINT OPTIONS...) and right of it (FSTYPE SOURCE SUPER), and
// returns its mount point and the folder that is the root of the mount.
func findMount(match func(fields, fs []string) bool) (mount, root string, found bool, err error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", "", false, err
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		left, right, ok := strings.Cut(s.Text(), " - ")
		fields, fs := strings.Fields(left), strings.Fields(right)
		if ok && len(fields) >= 6 && len(fs) >= 3 && match(fields, fs) {
			return fields[4], fields[3], true, nil
		}
	}
	return "", "", false, s.Err()
}

// open returns the folder of the cgroup of owner's run, creating
// it, opened for a start into it. The caller closes it once the child is
// started: every descriptor procs holds is one more for each later child's
// exec to close, and two hundred runs held two hundred for nothing.
func (c *cgroupSet) open(owner Owner) (*os.File, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	dir := filepath.Join(c.base, runCgroupName(owner))
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	path, err := unix.BytePtrFromString(dir)
	if err != nil {
		f.Close()
		return nil, err
	}
	c.runs[owner] = runCgroup{state: cgroupLive, dir: dir, path: path}
	return f, nil
}

// runCgroupName is "run-NAME-RUN" for owner's run (the engine's cgroup
// holds its instance).
func runCgroupName(owner Owner) string {
	return "run-" + owner.Name + "-" + strconv.Itoa(owner.Run)
}

// dir returns the cgroup folder of owner's run, if it has one.
func (c *cgroupSet) dir(owner Owner) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	run := c.runs[owner]
	if run.state != cgroupLive {
		return "", false
	}
	return run.dir, true
}

// kill kills every process of owner's run and removes its cgroup. had
// reports whether the run had a cgroup: then nothing the run started is
// left alive, wherever it went; killed, that something was still in it.
func (c *cgroupSet) kill(owner Owner) (had, killed bool) {
	c.mu.Lock()
	run := c.runs[owner]
	delete(c.runs, owner)
	c.mu.Unlock()
	switch run.state {
	case cgroupNone:
		return false, false
	case cgroupRemoved:
		return true, false
	}
	dir := run.dir
	// Mostly the run ended with its main process and the cgroup is empty:
	// removing it is the whole look (see removeIfEmpty).
	if rmdirEmptyAt(run.path) {
		return true, false
	}
	if killed = cgroupPopulated(filepath.Join(dir, "cgroup.events")); killed {
		killCgroup(dir)
	}
	removeCgroup(dir)
	return true, killed
}

// removeIfEmpty removes the cgroup of owner's run if no live process is
// left in it, and reports whether it did: the kernel refuses (EBUSY) to
// remove a populated cgroup, so one rmdir both asks and does what reading
// cgroup.events first would ask, in one system call instead of four. An
// exited process not yet reaped is not in it any more (cgroup v2 counts
// live tasks), so a run's zombies do not keep it.
//
// It allocates nothing: it runs on the goroutine that waited for the main
// process (Process.Wait), whose stack is the smallest Go gives, and an
// allocation here grew it (a copy into new memory) in every run of a
// 200-process shutdown.
func (c *cgroupSet) removeIfEmpty(owner Owner) bool {
	c.mu.Lock()
	run := c.runs[owner]
	c.mu.Unlock()
	if run.state != cgroupLive {
		return run.state == cgroupRemoved
	}
	// Not under c.mu: starts would wait for the rmdirs of runs ending (and
	// rmdirEmptyAt has a lock of its own). A run ends once.
	if !rmdirEmptyAt(run.path) {
		return false
	}
	c.mu.Lock()
	run.state = cgroupRemoved
	c.runs[owner] = run
	c.mu.Unlock()
	return true
}

// rmdirMu makes procs remove one cgroup at a time. The kernel does so
// anyway (every rmdir takes the cgroup hierarchy's global lock), so runs
// ending together gain nothing from asking at once; they only block
// threads in the kernel, which the Go runtime then replaces. Waiting here
// parks a goroutine instead (a shutdown of two hundred: 1.6 ms less CPU).
var rmdirMu sync.Mutex

// rmdirEmpty removes the cgroup dir if it is empty and has no cgroup
// below it, and reports whether it is gone.
func rmdirEmpty(dir string) bool {
	path, err := unix.BytePtrFromString(dir)
	return err == nil && rmdirEmptyAt(path)
}

// rmdirEmptyAt is rmdirEmpty of a NUL-terminated path, made once: it
// allocates nothing (see removeIfEmpty).
func rmdirEmptyAt(path *byte) bool {
	cwd := unix.AT_FDCWD
	rmdirMu.Lock()
	// unix.Rmdir is this call on every Linux (arm64 has no rmdir).
	_, _, errno := unix.Syscall(unix.SYS_UNLINKAT, uintptr(cwd), uintptr(unsafe.Pointer(path)), unix.AT_REMOVEDIR)
	rmdirMu.Unlock()
	return errno == 0 || errno == unix.ENOENT
}

// runCgroup is what a cgroupSet knows of one run's cgroup.
type runCgroup struct {
	state cgroupState
	// dir is its folder, and path the same NUL-terminated, as the kernel
	// takes it (see removeIfEmpty).
	dir  string
	path *byte
}

// cgroupState is where a run's cgroup is in its life.
type cgroupState uint8

const (
	cgroupNone    cgroupState = iota // the run never had one, or has ended
	cgroupLive                       // made, and not yet removed
	cgroupRemoved                    // removed while its run ends (removeIfEmpty)
)

// close kills every process of every run and removes the engine's cgroup.
func (c *cgroupSet) close() {
	c.mu.Lock()
	clear(c.runs)
	c.mu.Unlock()
	killCgroup(c.base)
	removeCgroup(c.base)
}

// cgroupEmptyWait bounds how long a killed cgroup is given to empty.
const cgroupEmptyWait = 5 * time.Second

// killCgroup kills every process in dir and below, and waits (boundedly)
// until they are gone: cgroup.events says "populated 0" then, and the
// kernel signals its change to inotify. cgroup.kill (Linux 5.14) kills in
// one write; an older kernel gets SIGKILL for each member until none is left.
func killCgroup(dir string) {
	killed := os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0) == nil
	deadline := time.Now().Add(cgroupEmptyWait)
	for time.Now().Before(deadline) {
		if !killed {
			signalAll(osproc.CgroupMembers(dir), unix.SIGKILL)
		}
		if waitCgroupEmpty(dir, time.Until(deadline)) {
			return
		}
	}
}

// waitCgroupEmpty waits until no live process is left in dir (and below),
// for at most limit, and reports whether it is so. It returns early, false,
// when a change is seen but the cgroup is still populated.
func waitCgroupEmpty(dir string, limit time.Duration) bool {
	events := filepath.Join(dir, "cgroup.events")
	if !cgroupPopulated(events) {
		return true // mostly so: a watch is set up only when there is a wait
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return !cgroupPopulated(events)
	}
	defer unix.Close(fd)
	if _, err := unix.InotifyAddWatch(fd, events, unix.IN_MODIFY); err != nil {
		return !cgroupPopulated(events) // gone already, or not a cgroup
	}
	// Read again now that the watch is set: an emptying between the first
	// read and the watch would otherwise go unseen until limit.
	if !cgroupPopulated(events) {
		return true
	}
	poll := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	_, _ = unix.Poll(poll, int(limit/time.Millisecond)+1)
	return !cgroupPopulated(events)
}

// cgroupPopulated reads the "populated" line of a cgroup.events file; a
// cgroup that cannot be read counts as empty (it is gone).
func cgroupPopulated(events string) bool {
	var buf [64]byte
	return bytes.Contains(osproc.ReadKernelFile(events, buf[:0]), []byte("populated 1"))
}

// setCgroupFD makes cmd start in the cgroup whose folder dir is open
// (clone3 with CLONE_INTO_CGROUP): the child is never outside it.
func setCgroupFD(cmd *exec.Cmd, dir *os.File) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.UseCgroupFD = true
	cmd.SysProcAttr.CgroupFD = int(dir.Fd())
}

// removeCgroup removes dir and the cgroups below it, once they are empty.
func removeCgroup(dir string) {
	// A run's cgroup mostly has none below it: the folder is read only
	// when removing it alone fails.
	if rmdirEmpty(dir) {
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			removeCgroup(filepath.Join(dir, e.Name()))
		}
	}
	deadline := time.Now().Add(cgroupEmptyWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err := unix.Rmdir(dir)
		if err == nil || errors.Is(err, unix.ENOENT) || !errors.Is(err, unix.EBUSY) || time.Now().After(deadline) {
			return
		}
		time.Sleep(wait)
	}
}

// cleanStaleCgroups kills what earlier procs left in their cgroups under
// parent when both they and their watchdogs were killed (SIGKILL, OOM): a
// cgroup named procs-PID-... whose PID is gone, or a zombie, belongs to
// nobody.
func cleanStaleCgroups(parent string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), cgroupPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		// A zombie is not alive: a procs killed with its watchdog whose
		// parent never reaped it must not keep its cgroup for good.
		if err != nil || pid <= 0 || osproc.Live(pid) {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		killCgroup(dir)
		removeCgroup(dir)
	}
}
