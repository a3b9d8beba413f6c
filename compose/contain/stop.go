package contain

import (
	"sync"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
)

// SignalRun sends each of sigs, in turn, to the run's process group, then
// to every process of the run that left it: a daemon that started a
// session of its own (setsid) is still in the run's cgroup, or carries its
// marker. A stop that signals the group alone leaves such a daemon to the
// SIGKILL at the end of the shutdown timeout, which it never gets the
// chance to avoid.
//
// Where the run has a cgroup, that second look is deferred: mostly the
// group was the whole run, the main process exits at once, and the rmdir
// that ends the run (End) says that nothing is left, without a read of
// cgroup.procs per stop (a fifth of procs' CPU in a 200-process
// shutdown). The look is made when the main process has exited and its
// cgroup is still populated, or outsideLookDelay after the signals if the
// main process is still running then (a wrapper that waits for the daemon
// it started).
func (c *Process) SignalRun(sigs ...syscall.Signal) {
	for _, sig := range sigs {
		c.Signal(sig)
	}
	s := getSpawner()
	if _, ok := s.cgroupDir(c.owner); ok {
		c.outside.arm(func() {
			// Gone once the run's end removed its cgroup: nothing is left.
			if dir, ok := s.cgroupDir(c.owner); ok {
				c.signalOutside(osproc.CgroupMembers(dir), sigs)
			}
		}, func() bool { return osproc.ExitPending(c.pid) })
		return
	}
	// Without a cgroup the look reads every process's environment: once,
	// now.
	c.signalOutside(FindMarked(c.owner.String()), sigs)
}

// signalOutside sends sigs to those of the run's processes members that
// are outside its process group (not signalled with it already: a second
// SIGTERM or SIGINT means "quit now" to many servers), and records that
// there were some.
func (c *Process) signalOutside(members []int, sigs []syscall.Signal) {
	outside := members[:0]
	for _, pid := range members {
		if group, err := osproc.Getpgid(pid); err == nil && group != c.pid {
			outside = append(outside, pid)
		}
	}
	if len(outside) == 0 {
		return
	}
	c.leftGroup.Store(true)
	for _, sig := range sigs {
		signalAll(outside, sig)
	}
}

// outsideLookDelay is how long a stop of a run with a cgroup waits for the
// main process to exit before it looks for the run's processes outside its
// process group (see SignalRun). It delays only the stop of a main process
// that waits for what it started in a session of its own. A variable for
// the tests that show the look does not wait for it otherwise.
var outsideLookDelay = 50 * time.Millisecond

// afterMainExit settles a stop's pending look as soon as the main process
// has exited (Wait): a cgroup that is empty then is removed at once, and
// the look is not needed; one still populated has the look made now, not
// at its timer. What lives on (a setsid daemon) mostly holds the run's
// output open, and the run reads its output to the end before it ends:
// waiting for the run's end to make the look made every such stop take
// the timer's 50 ms.
func (c *Process) afterMainExit() {
	if !c.outside.pending() {
		return
	}
	if getSpawner().removeRunCgroupIfEmpty(c.owner) {
		c.outside.drop()
		return
	}
	c.outside.now()
}

// deferredLook is a stop's look outside the process group, due once: at
// its timer if the main process is still running then, or when the run's
// end finds its cgroup still populated (now), whichever comes first; or
// never, once the run ended without needing it (drop).
type deferredLook struct {
	mu    sync.Mutex
	look  func() // nil once done or dropped
	timer *time.Timer
	// mainExited reports whether the main process has exited; nil once
	// the timer has had its turn.
	mainExited func() bool
	// stops counts the arms: a timer acts only for the stop that set it,
	// not for a later one that replaced it as it fired.
	stops uint64
}

// arm makes look due after outsideLookDelay, unless now or drop comes
// first. A second stop's look replaces a pending one.
func (d *deferredLook) arm(look func(), mainExited func() bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.look, d.mainExited = look, mainExited
	d.stops++
	stop := d.stops
	d.timer = time.AfterFunc(outsideLookDelay, func() { d.atTimer(stop) })
}

// atTimer makes the pending look, unless the main process has exited by
// now: its exit, once procs takes it in (afterMainExit), settles the look
// then, mostly with the rmdir of an empty cgroup instead of a read of
// its members. The timer is for a main process that waits for what it
// started; one that has exited is not waiting. On a loaded machine, where
// a 200-process shutdown takes longer than the timer, most timers came
// to mains that had exited and were not yet taken in, and each read its
// cgroup for nothing. stop is the arm that set the timer: a timer that
// fired as a later stop replaced it leaves that stop's look to its own.
func (d *deferredLook) atTimer(stop uint64) {
	d.mu.Lock()
	if stop != d.stops {
		d.mu.Unlock()
		return
	}
	exited := d.mainExited
	d.mu.Unlock()
	if exited == nil || !exited() {
		d.nowFor(stop)
	}
	d.mu.Lock()
	if stop == d.stops {
		d.mainExited = nil
	}
	d.mu.Unlock()
}

// pending reports whether a look is due.
func (d *deferredLook) pending() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.look != nil
}

// now makes the pending look, if there is one.
func (d *deferredLook) now() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lookLocked()
}

// nowFor makes the pending look if it is still that of stop.
func (d *deferredLook) nowFor(stop uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if stop == d.stops {
		d.lookLocked()
	}
}

// lookLocked makes the pending look, if there is one; d.mu is held.
func (d *deferredLook) lookLocked() {
	if d.look == nil {
		return
	}
	d.timer.Stop()
	look := d.look
	d.look = nil
	look() // under d.mu: a drop waits until the signals are sent
}

// drop cancels the pending look: the run has ended, or is killed.
func (d *deferredLook) drop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.look = nil
}

// cgroupDir returns the cgroup folder of owner's run, if it has one.
func (s *spawner) cgroupDir(owner Owner) (string, bool) {
	if e := s.engine(owner); e != nil && e.cgroups != nil {
		return e.cgroups.dir(owner)
	}
	return "", false
}
