package contain

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// enrolled is what the spawner knows of one engine of this process.
type enrolled struct {
	instance string
	cgroups  *cgroupSet // nil where cgroups are not available
	watchdog *watchdog  // nil without a watchdog
	// limits is made on the first run with resource limits (limitSet);
	// limitsMu, a leaf of the spawner's lock order, guards it.
	limitsMu sync.Mutex
	limits   *limitSet
	// closing says the engine is shutting down (Containment.Closing).
	closing atomic.Bool
}

// enroll gives each run of the engine instance a cgroup of its own where
// the kernel allows, and tells wd (which may be nil) what to kill should
// procs die. Call release once the engine's runs have all ended: it kills
// whatever they left, marked or not, and removes the cgroups.
func (s *spawner) enroll(instance string, wd *watchdog) (release func()) {
	e := &enrolled{instance: instance, watchdog: wd}
	if cg, err := newCgroupSet(instance); err == nil {
		e.cgroups = cg
		wd.send("C " + cg.base)
	} else if wd != nil && osproc.Features().Subreaper {
		s.watchStraysOnce.Do(func() { go s.watchStrays() })
	}
	s.mu.Lock()
	s.engines[instance] = e
	s.mu.Unlock()
	return func() {
		// The engine stays enrolled until what its runs left is killed:
		// without a subreaper (macOS, FreeBSD) its strays are found by the
		// engines' markers (adopted), and its own would not be among them.
		defer func() {
			s.mu.Lock()
			delete(s.engines, instance)
			s.mu.Unlock()
		}()
		if ls := e.limitsIfMade(); ls != nil {
			defer ls.close() // once what its runs left is killed
		}
		if e.cgroups != nil {
			e.cgroups.close() // everything the runs started, wherever it went
			return
		}
		s.killStrays(instance)
	}
}

// instanceOf is the instance ID of an owner marker "instance:name:run:".
func instanceOf(owner string) string {
	instance, _, _ := strings.Cut(owner, ":")
	return instance
}

// placeInCgroup makes cmd start in the cgroup of owner's run, when its
// engine has cgroups. It returns the cgroup's folder, open until the start
// is done (nil: none).
func (s *spawner) placeInCgroup(cmd *exec.Cmd, owner Owner) *os.File {
	if cmd == nil || owner == (Owner{}) {
		return nil
	}
	e := s.engine(owner)
	if e == nil || e.cgroups == nil {
		return nil
	}
	dir, err := e.cgroups.open(owner)
	if err != nil {
		return nil // the run goes without: the marker and the sweep remain
	}
	setCgroupFD(cmd, dir)
	return dir
}

// killStrays kills, once an engine has stopped, what its runs left behind:
// every process re-parented to procs that carries the engine's marker, or
// no marker at all (every process re-parented to procs is procs' own; a
// marker of another engine of this process is left to that engine).
func (s *spawner) killStrays(instance string) {
	s.forking.Lock()
	defer s.forking.Unlock()
	s.mu.RLock()
	others := slices.Collect(maps.Keys(s.engines))
	s.mu.RUnlock()
	for _, pid := range s.strays() {
		tree, err := rules.ProcessTree(pid)
		if err != nil {
			continue
		}
		markers := markersAmong(tree)
		killedRoot := false
		for _, p := range tree {
			// A process of another engine of this process is left to it.
			if marker, ok := markers[p]; ok {
				if owner := instanceOf(marker); owner != instance && slices.Contains(others, owner) {
					continue
				}
			}
			killedRoot = killedRoot || p == pid
			_ = osproc.Signal(p, syscall.SIGKILL)
		}
		reap(pid, killedRoot)
	}
}

// reap collects the exit of a stray so that it leaves no zombie; one just
// killed is given a moment to die (bounded: a process in uninterruptible
// sleep dies when it wakes).
func reap(pid int, killed bool) {
	deadline := time.Now().Add(time.Second)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		if osproc.Reap(pid) || !killed || time.Now().After(deadline) {
			return
		}
		time.Sleep(wait)
	}
}

// strayScanEvery is how often, without cgroups, procs looks for processes
// re-parented to it that carry no marker, to tell its watchdogs.
const strayScanEvery = 250 * time.Millisecond

// watchStrays tells the watchdogs, for as long as procs lives, about each
// unmarked process re-parented to it: nothing announces a re-parenting, so
// it looks.
func (s *spawner) watchStrays() {
	for range time.Tick(strayScanEvery) {
		s.scanStrays()
	}
}

// ScanStrays tells the watchdogs now about the unmarked processes
// re-parented to procs, as the scan that runs every strayScanEvery does:
// for a caller that must know they have been told (a test that kills
// procs next).
func ScanStrays() { getSpawner().scanStrays() }

// scanStrays tells the watchdogs about the unmarked strays there are now.
func (s *spawner) scanStrays() {
	s.forking.Lock()
	defer s.forking.Unlock()
	for _, pid := range s.strays() {
		if tree, err := rules.ProcessTree(pid); err == nil {
			s.reportUnmarked(tree, markersAmong(tree))
		}
	}
}

// reportUnmarked tells the watchdogs about the processes among pids that
// carry no owner marker (none in markers, markersAmong(pids)): procs
// cannot tell which run they belong to, but they are its own, and must not
// outlive it.
func (s *spawner) reportUnmarked(pids []int, markers map[int]string) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	for _, pid := range pids {
		if _, marked := markers[pid]; marked {
			continue
		}
		start, ok := osproc.StartTime(pid)
		if !ok || s.reported[pid] == start {
			continue
		}
		s.reported[pid] = start
		for _, e := range s.engines {
			if e.cgroups == nil { // with cgroups, the watchdog kills those
				e.watchdog.send(fmt.Sprintf("P %d %d", pid, start))
			}
		}
	}
}
