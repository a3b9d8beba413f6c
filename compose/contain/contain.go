// Package contain keeps every process procs starts from outliving it or
// escaping it. It starts each run's process tree (from a pool of locked
// threads, so that the parent-death signal means "procs died"), puts it in
// a cgroup of its own where Linux allows, marks it with the owner marker
// (PROCS_OWNER) everywhere else, finds and stops what a run leaves behind,
// and runs the watchdog: a small sh that waits on a pipe from procs and,
// when procs dies in any way, executes procs to stop everything it had
// recorded.
//
// The engine sees it through Containment and *Process: start a process
// tree, know when it ended (Wait), stop it completely (Signal, End), say
// what it left (Daemons). internal/osproc is the platform layer below it.
package contain

import (
	"fmt"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// Containment is how one engine starts process trees and ends them; one
// per engine instance (New), closed once every run of the engine is over.
type Containment interface {
	// Start starts spec.Argv as the root of a new process tree: its own
	// process group (or session, on a terminal), in the run's cgroup where
	// there is one, recorded with the watchdog.
	Start(spec Spec) (*Process, error)
	// Closing says the engine's shutdown has begun: the stops from then on
	// leave what moved out of their runs' cgroups to Close, which looks
	// for it once for all of them.
	Closing()
	// Close kills whatever the engine's runs left, marked or not, removes
	// their cgroups and ends the watchdog after a clean shutdown.
	Close() error
}

// Spec is what to start for one run.
type Spec struct {
	Argv []string
	Dir  string
	// Env is the whole environment of the child; it should hold the
	// owner's marker (OwnerVar=Owner.String()) so that descendants that
	// escape the process group can still be found.
	Env []string
	// Window is the terminal size of a PTY run; nil runs on pipes.
	Window *pty.Winsize
	// Owner is the run the tree belongs to: it names the run's cgroup.
	Owner Owner
	// Limits hold the whole run to its resources: where they cannot be
	// enforced (LimitsAvailable), the run starts without them.
	Limits Limits
	// NoInput gives a run on pipes /dev/null for stdin, not a pipe procs
	// can write to: a program that takes no input but reads its stdin to
	// the end (an agent CLI's one-shot JSON mode) would wait for it forever.
	NoInput bool
}

// Owner names one run of one process of one engine instance. Its String
// is the value of the owner marker of that run's processes.
type Owner struct {
	Instance string
	Name     string
	Run      int
}

// String is the marker "instance:name:run:"; the trailing colon keeps run
// 1 from matching run 10 as a prefix.
func (o Owner) String() string {
	return fmt.Sprintf("%s:%s:%d:", o.Instance, o.Name, o.Run)
}

// Options configure a containment.
type Options struct {
	// Watchdog starts the watchdog process (off in tests of the engine
	// alone).
	Watchdog bool
}

// New enrolls the engine instance with the process-wide spawner: its runs
// get a cgroup of their own where the kernel allows, and the watchdog (if
// asked for) is told what to kill should procs die.
func New(instance string, opts Options) (Containment, error) {
	var wd *watchdog
	if opts.Watchdog {
		var err error
		if wd, err = startWatchdog(instance); err != nil {
			return nil, err
		}
	}
	return &engineContainment{instance: instance, watchdog: wd, release: getSpawner().enroll(instance, wd)}, nil
}

// CgroupsAvailable says why the runs of an engine would get no cgroup
// here (nil: they would), by making one and removing it.
func CgroupsAvailable() error {
	cg, err := newCgroupSet(NewInstance())
	if err != nil {
		return err
	}
	cg.close()
	return nil
}

// engineContainment is the Containment of one engine of this process.
type engineContainment struct {
	instance string
	watchdog *watchdog // nil without one
	release  func()
}

func (c *engineContainment) Closing() {
	if e := getSpawner().engine(Owner{Instance: c.instance}); e != nil {
		e.closing.Store(true)
	}
}

func (c *engineContainment) Start(spec Spec) (*Process, error) {
	p, err := launch(spec)
	if err != nil {
		return nil, err
	}
	p.watchdog = c.watchdog
	c.watchdog.track(p.pid)
	return p, nil
}

func (c *engineContainment) Close() error {
	// The last look for what the runs left reads every process's
	// environment; removing the engine's cgroup needs nothing of it. Both
	// are what a shutdown waits for last: they are made side by side, and
	// the watchdog is told to go only once both are done.
	released := make(chan struct{})
	go func() {
		defer close(released)
		c.release()
	}()
	c.watchdog.lastLook()
	<-released
	return c.watchdog.close()
}

// End stops the run completely once its main process has exited: it waits
// until deadline (zero: not at all) for the rest of the run to exit, then
// kills the process group and what escaped it (the run's cgroup, or the
// strays that carry its marker), and tells the watchdog to forget the
// group. A graceful stop passes its deadline: the leader (runuser, a shell)
// may exit while the server it started still shuts down cleanly (postgres
// writing its checkpoint); killing it at once would lose that work, and a
// start right after would find its files. killed reports that something of
// the run was still running at deadline, and was killed.
//
// waiting, if not nil, is called once before End waits, if it does: a
// caller that must take requests meanwhile (a kill, see Kill) starts
// listening then, and costs nothing in the common end, where the run
// ended with its main process.
func (c *Process) End(deadline time.Time, waiting func()) (killed bool) {
	s := getSpawner()
	if !deadline.IsZero() {
		killed = !s.waitRunGone(c.owner, c.pid, deadline, func() {
			// Something of the run outside the group is still running:
			// the stop's look for it is due now (see SignalRun).
			c.outside.now()
			if waiting != nil {
				waiting()
			}
		})
	}
	c.outside.drop()
	// No orphans: the group and anything that escaped it but carries the
	// run's marker go with the main process.
	c.Signal(syscall.SIGKILL)
	s.sweepStrays(c)
	c.limits.remove()
	c.watchdog.untrack(c.pid)
	return killed
}

// Kill kills what is left of the run at once, wherever it went: its
// process group, and its cgroup or, without one, what carries its marker.
// An End waiting for the run to be gone returns then: a kill asked for
// while a stop waits for a child that ignores the stop signal (procs'
// second Ctrl-C) does not wait for the stop's deadline.
func (c *Process) Kill() {
	c.Signal(syscall.SIGKILL)
	s := getSpawner()
	if dir, ok := s.cgroupDir(c.owner); ok {
		killCgroup(dir)
		return
	}
	signalAll(FindMarked(c.owner.String()), syscall.SIGKILL)
}

// Daemons says what the run left running once its main process is gone,
// when it daemonized (see leftBehind). Call it after Wait and before End,
// which kills them without a grace.
func (c *Process) Daemons() Daemons {
	d := getSpawner().leftBehind(c.owner, c.startTicks)
	if len(d.roots) > 0 {
		c.leftGroup.Store(true)
	}
	return d
}
