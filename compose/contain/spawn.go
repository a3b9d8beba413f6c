package contain

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// spawner starts every child from a small pool of goroutines, each locked
// to an OS thread of its own for the life of procs. The parent-death signal
// (Pdeathsig) fires when the *thread* that forked a child exits, not the
// process; Go may retire idle threads, so forking only from threads that
// live as long as procs is what makes the signal mean "procs died". Several
// threads fork at once: a fork waits for its child to execute its program,
// and one thread made every start wait for all the ones before it.
//
// Lock order, outermost first; a lock not listed before another is never
// taken while holding it:
//
//	forking → mu → reportMu → watchdog.mu (reportUnmarked, under a sweep)
//	forking → cgroupSet.mu              (fork: open the run's cgroup)
//	enrolled.limitsMu → watchdog.mu     (a run's limits, before its fork)
//
// cgroupSet.mu and watchdog.mu are leaves: no other lock is taken while
// either is held. mu and cgroupSet.mu are never held together (engine
// returns before the cgroup is touched), and no one takes forking while
// holding mu. No lock is held while waiting for a spawner thread.
type spawner struct {
	requests chan spawnRequest
	// forking is held shared by each start, from before its fork until
	// its child is recorded, and exclusively by whoever tells strays
	// (children procs did not start) from its own children: so a child
	// forked but not yet recorded is never taken for a stray.
	forking sync.RWMutex
	// mu guards children (the direct children procs started) and engines
	// (the engines of this process, by instance ID; see enroll).
	mu       sync.RWMutex
	children map[int]bool
	engines  map[string]*enrolled
	// sweeps carries the stray sweeps asked for to the one goroutine that
	// does them (see sweepStrays); reaps asks it, without waiting, for a
	// sweep that only reaps (one pending request stands for any number).
	sweeps chan sweepRequest
	reaps  chan struct{}
	// reported holds the start time of each unmarked stray told to the
	// watchdogs (guarded by reportMu: readers of mu report).
	reportMu        sync.Mutex
	reported        map[int]uint64
	watchStraysOnce sync.Once
}

type spawnRequest struct {
	cmd   *exec.Cmd
	owner Owner // the zero Owner: no run, no cgroup (the watchdog)
	start func() error
	pid   func() int
	done  chan error
}

// spawnThreads is how many threads fork children: one per core, at least
// two (a fork mostly waits for its child's exec), and a few at most.
var spawnThreads = min(max(runtime.NumCPU(), 2), 4)

var (
	theSpawner     *spawner
	theSpawnerOnce sync.Once
)

// getSpawner returns the process-wide spawner, starting it on first use.
// It is process-wide because Pdeathsig and the subreaper flag are properties
// of the OS process, not of one engine.
func getSpawner() *spawner {
	theSpawnerOnce.Do(func() {
		theSpawner = &spawner{
			requests: make(chan spawnRequest), children: make(map[int]bool),
			engines: make(map[string]*enrolled), reported: make(map[int]uint64),
			sweeps: make(chan sweepRequest), reaps: make(chan struct{}, 1),
		}
		becomeSubreaper()
		for range spawnThreads {
			go theSpawner.loop()
		}
		go theSpawner.sweepLoop()
	})
	return theSpawner
}

// becomeSubreaper makes double-forked descendants re-parent to procs
// instead of init, where procs can still find and stop them. It is a flag
// of the process: any thread may set it. Only Linux has one
// (osproc.Features); elsewhere see adopted.
func becomeSubreaper() {
	_ = osproc.BecomeSubreaper()
}

// loop is one spawner thread: it starts the children asked for, one at a
// time, for as long as procs lives.
func (s *spawner) loop() {
	// Never unlocked: the thread must outlive every child it forks.
	runtime.LockOSThread()
	for req := range s.requests {
		req.done <- s.fork(req)
	}
}

// fork starts one child and records it.
func (s *spawner) fork(req spawnRequest) error {
	s.forking.RLock()
	defer s.forking.RUnlock()
	if dir := s.placeInCgroup(req.cmd, req.owner); dir != nil {
		// Only the clone into it needs the folder open.
		defer dir.Close()
	}
	err := req.start()
	if err == nil {
		s.mu.Lock()
		s.children[req.pid()] = true
		s.mu.Unlock()
	}
	return err
}

// start runs cmd.Start (or an equivalent such as pty.Start) on a spawner
// thread, in the cgroup of owner's run if it has one, and records the child.
func (s *spawner) start(cmd *exec.Cmd, owner Owner, start func() error) error {
	done := make(chan error, 1)
	s.requests <- spawnRequest{cmd: cmd, owner: owner, start: start, pid: func() int { return cmd.Process.Pid }, done: done}
	return <-done
}

// started reports whether pid is a child procs started (and has not yet
// waited for).
func (s *spawner) started(pid int) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.children[pid]
}

// forget drops a child that has been waited for.
func (s *spawner) forget(pid int) {
	s.mu.Lock()
	delete(s.children, pid)
	s.mu.Unlock()
}

// sweepStrays kills what one run (marked owner) left behind, and reaps
// strays that have exited so they do not linger as zombies. Where the run
// has a cgroup, killing it takes everything the run started; what it
// killed that was re-parented to procs is reaped by a sweep that this run
// does not wait for. Without one: once a run's main process is gone,
// everything it left running has been re-parented to procs, the
// subreaper: it is a direct child that procs did not start, or below one.
// So only those subtrees are read, not all of /proc; what carries the
// run's marker is killed, what carries none (a daemon that emptied its
// environment) is told to the watchdog and killed when procs ends. Direct
// children are left to their exec.Cmd.
//
// Finding the strays reads the children of every thread of procs; the runs
// that end together (a shutdown wave) share one look (see sweepLoop).
//
// What a run that never left its process group (Process.leftGroup)
// leaves as procs' zombies is in that group: one waitid reaps it, where a
// look at all of procs' children would read them all, on every stop.
//
// A process that moved itself out of the run's cgroup (into one of its
// own: systemd-run --user --scope, a tmux server built for systemd) is in
// no cgroup or group of the run; once its parent is gone it is procs'
// child, and the sweep finds it by its marker. A stop outside a shutdown
// asks for that sweep; in a shutdown, Close's last look finds such a
// process, and two hundred stops do not each wait for a sweep.
func (s *spawner) sweepStrays(c *Process) {
	owner := c.owner
	if e := s.engine(owner); e != nil && e.cgroups != nil {
		if had, killed := e.cgroups.kill(owner); had {
			inGroup := !killed && !c.leftGroup.Load()
			if inGroup {
				osproc.ReapGroup(c.pid)
			}
			if e.closing.Load() {
				if !inGroup {
					select {
					case s.reaps <- struct{}{}:
					default: // a reap is pending already, and will find these too
					}
				}
				return
			}
		}
	}
	done := make(chan struct{})
	s.sweeps <- sweepRequest{owner: owner, done: done}
	<-done
}

// sweepRequest asks for the strays of the run marked owner to be swept;
// done is closed once they are.
type sweepRequest struct {
	owner Owner
	done  chan struct{}
}

// sweepLoop does the sweeps, for as long as procs lives: each look at the
// strays serves every sweep asked for by the time it begins, and any reap.
func (s *spawner) sweepLoop() {
	for {
		var batch []sweepRequest
		select {
		case req := <-s.sweeps:
			batch = append(batch, req)
		case <-s.reaps:
		}
		for more := true; more; {
			select {
			case req := <-s.sweeps:
				batch = append(batch, req)
			case <-s.reaps:
			default:
				more = false
			}
		}
		s.sweepOnce(batch)
		for _, req := range batch {
			close(req.done)
		}
	}
}

// sweepOnce kills the strays marked with the owner of any request in
// batch, tells the watchdogs about the unmarked ones, and reaps the dead.
//
// A stray's tree is read after the strays are listed. A stray that exits
// in between (one of the group just killed, a subshell that has just
// forked its daemon) takes its children out of its tree: the kernel
// re-parents them to procs, where the listing missed them. So while a
// look kills something it had not killed before, another look follows
// and finds them among procs' children; a few looks at most, should a
// stray fork faster than it is killed.
func (s *spawner) sweepOnce(batch []sweepRequest) {
	s.forking.Lock()
	defer s.forking.Unlock()
	killed := make(map[int]bool)
	for look := 0; look < maxSweepLooks; look++ {
		if !s.sweepLook(batch, killed) {
			return
		}
	}
}

// maxSweepLooks bounds the looks of one sweep (see sweepOnce).
const maxSweepLooks = 4

// sweepLook is one look of sweepOnce: it records in killed what it
// killed, and reports whether it killed anything not killed before.
func (s *spawner) sweepLook(batch []sweepRequest, killed map[int]bool) (more bool) {
	for _, pid := range s.strays() {
		if tree, err := rules.ProcessTree(pid); err == nil {
			// Each process's environment is read once, for every request.
			markers := markersAmong(tree)
			for _, req := range batch {
				for _, victim := range withPrefix(markers, req.owner.String()) {
					_ = osproc.Signal(victim, syscall.SIGKILL)
					more = more || !killed[victim]
					killed[victim] = true
				}
			}
			s.reportUnmarked(tree, markers)
		}
		osproc.Reap(pid)
	}
	return more
}

// engine returns what the spawner knows of the engine of the run marked
// owner, or nil.
func (s *spawner) engine(owner Owner) *enrolled {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.engines[owner.Instance]
}

// waitRunGone waits until every process of the run marked owner has
// exited, or until deadline: the members of its cgroup where it has one
// (the kernel says when it empties), else of its process group pgid (looked
// at on a short backoff: the kernel gives no event for a group). gone
// reports that nothing of it is left. waiting is called once, before the
// wait, when something of the run is found still running: mostly nothing
// is, and the wait is not made.
func (s *spawner) waitRunGone(owner Owner, pgid int, deadline time.Time, waiting func()) (gone bool) {
	if s.removeRunCgroupIfEmpty(owner) {
		return true // mostly so: the run ended with its main process
	}
	if dir, ok := s.cgroupDir(owner); ok {
		waiting()
		// waitCgroupEmpty returns early on a change that left it populated.
		for !gone && time.Now().Before(deadline) {
			gone = waitCgroupEmpty(dir, time.Until(deadline))
		}
		return gone
	}
	for pause := 5 * time.Millisecond; time.Now().Before(deadline); pause = min(2*pause, 100*time.Millisecond) {
		// Members that exited after procs adopted them are its zombies,
		// still in the group until reaped.
		osproc.ReapGroup(pgid)
		if !osproc.GroupAlive(pgid) {
			return true // ESRCH: no process is left in the group
		}
		if waiting != nil {
			waiting()
			waiting = nil
		}
		time.Sleep(min(pause, time.Until(deadline)))
	}
	osproc.ReapGroup(pgid)
	return !osproc.GroupAlive(pgid)
}

// removeRunCgroupIfEmpty removes the cgroup of owner's run if nothing
// lives in it, and reports whether it is gone (see removeIfEmpty): false
// where the run has none.
func (s *spawner) removeRunCgroupIfEmpty(owner Owner) bool {
	e := s.engine(owner)
	return e != nil && e.cgroups != nil && e.cgroups.removeIfEmpty(owner)
}

// strays lists the direct children of procs that it did not start: the
// processes re-parented to it. A child in procs' own process group is not
// one: every run starts a group (or session) of its own, so that is a
// command some other part of the program forked (an exec probe, a test's
// helper), which its exec.Cmd waits for. The caller holds s.forking
// exclusively: no child is between its fork and its record.
func (s *spawner) strays() []int {
	own := osproc.Getpgrp()
	var out []int
	for _, pid := range s.adopted() {
		// The runs' own main processes are most of the children: they are
		// known without asking the kernel for their group.
		if s.started(pid) {
			continue
		}
		if pgid, err := osproc.Getpgid(pid); err == nil && pgid != own {
			out = append(out, pid)
		}
	}
	return out
}
