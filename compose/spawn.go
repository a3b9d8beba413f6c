package compose

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// spawner starts every child from one goroutine locked to one OS thread.
// The parent-death signal (Pdeathsig) fires when the *thread* that forked a
// child exits, not the process; Go may retire idle threads, so forking from a
// thread that lives as long as procs is what makes the signal mean "procs died".
type spawner struct {
	requests chan spawnRequest
	// children guards the set of direct children against the orphan reaper:
	// a child must be recorded before the reaper may look for strays.
	mu       sync.RWMutex
	children map[int]bool
	// engines are the engines of this process, by instance ID (see enroll).
	engines map[string]*enrolled
	// reported holds the start time of each unmarked stray told to the
	// watchdogs (guarded by reportMu: readers of mu report).
	reportMu        sync.Mutex
	reported        map[int]uint64
	watchStraysOnce sync.Once
}

type spawnRequest struct {
	cmd   *exec.Cmd
	start func() error
	pid   func() int
	done  chan error
}

var (
	theSpawner     *spawner
	theSpawnerOnce sync.Once
)

// getSpawner returns the process-wide spawner, starting it on first use.
// It is process-wide because Pdeathsig and the subreaper flag are properties
// of the OS process, not of one engine.
func getSpawner() *spawner {
	theSpawnerOnce.Do(func() {
		theSpawner = &spawner{requests: make(chan spawnRequest), children: make(map[int]bool), engines: make(map[string]*enrolled), reported: make(map[int]uint64)}
		ready := make(chan struct{})
		go theSpawner.loop(ready)
		<-ready
	})
	return theSpawner
}

func (s *spawner) loop(ready chan<- struct{}) {
	// Never unlocked: the thread must outlive every child it forks.
	runtime.LockOSThread()
	// Become the subreaper so double-forked descendants are re-parented to
	// procs instead of init, where procs can still find and stop them.
	// Only Linux has one (osproc.Features); elsewhere see adopted.
	_ = osproc.BecomeSubreaper()
	close(ready)
	for req := range s.requests {
		s.mu.Lock()
		s.placeInCgroup(req.cmd)
		err := req.start()
		if err == nil {
			s.children[req.pid()] = true
		}
		s.mu.Unlock()
		req.done <- err
	}
}

// start runs cmd.Start (or an equivalent such as pty.Start) on the spawner
// thread and records the child.
func (s *spawner) start(cmd *exec.Cmd, start func() error) error {
	done := make(chan error, 1)
	s.requests <- spawnRequest{cmd: cmd, start: start, pid: func() int { return cmd.Process.Pid }, done: done}
	return <-done
}

// forget drops a child that has been waited for.
func (s *spawner) forget(pid int) {
	s.mu.Lock()
	delete(s.children, pid)
	s.mu.Unlock()
}

// sweepStrays kills what one run (marked owner) left behind, and reaps
// strays that have exited so they do not linger as zombies. Where the run
// has a cgroup, killing it takes everything the run started. Without one:
// once a run's main process is gone, everything it left running has been
// re-parented to procs, the subreaper: it is a direct child that procs did
// not start, or below one. So only those subtrees are read, not all of
// /proc; what carries the run's marker is killed, what carries none (a
// daemon that emptied its environment) is told to the watchdog and killed
// when procs ends. Direct children are left to their exec.Cmd.
func (s *spawner) sweepStrays(owner string) {
	s.mu.RLock()
	e := s.engines[instanceOf(owner)]
	s.mu.RUnlock()
	if e != nil && e.cgroups != nil {
		e.cgroups.kill(owner)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, pid := range s.strays() {
		if tree, err := rules.ProcessTree(pid); err == nil {
			signalAll(markedAmong(tree, owner), syscall.SIGKILL)
			s.reportUnmarked(tree)
		}
		osproc.Reap(pid)
	}
}

// waitRunGone waits until every process of the run marked owner has
// exited, or until deadline: the members of its cgroup where it has one
// (the kernel says when it empties), else of its process group pgid (looked
// at on a short backoff: the kernel gives no event for a group).
func (s *spawner) waitRunGone(owner string, pgid int, deadline time.Time) {
	s.mu.RLock()
	e := s.engines[instanceOf(owner)]
	s.mu.RUnlock()
	if e != nil && e.cgroups != nil {
		if dir, ok := e.cgroups.dir(owner); ok {
			// waitCgroupEmpty returns early on a change that left it populated.
			for empty := false; !empty && time.Now().Before(deadline); {
				empty = waitCgroupEmpty(dir, time.Until(deadline))
			}
			return
		}
	}
	for pause := 5 * time.Millisecond; time.Now().Before(deadline); pause = min(2*pause, 100*time.Millisecond) {
		// Members that exited after procs adopted them are its zombies,
		// still in the group until reaped.
		osproc.ReapGroup(pgid)
		if !osproc.GroupAlive(pgid) {
			return // ESRCH: no process is left in the group
		}
		time.Sleep(min(pause, time.Until(deadline)))
	}
}

// strays lists the direct children of procs that it did not start: the
// processes re-parented to it. A child in procs' own process group is not
// one: every run starts a group (or session) of its own, so that is a
// command some other part of the program forked (an exec probe, a test's
// helper), which its exec.Cmd waits for. The caller holds s.mu.
func (s *spawner) strays() []int {
	own := osproc.Getpgrp()
	var out []int
	for _, pid := range s.adopted() {
		if pgid, err := osproc.Getpgid(pid); !s.children[pid] && err == nil && pgid != own {
			out = append(out, pid)
		}
	}
	return out
}
