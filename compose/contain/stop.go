package contain

import (
	"syscall"

	"github.com/procsdev/procs/internal/osproc"
)

// SignalRun sends each of sigs, in turn, to the run's process group, then
// to every process of
// the run that left it: a daemon that started a session of its own
// (setsid) is still in the run's cgroup, or carries its marker. A stop
// that signals the group alone leaves such a daemon to the SIGKILL at the
// end of the shutdown timeout, which it never gets the chance to avoid.
func (c *Process) SignalRun(sigs ...syscall.Signal) {
	for _, sig := range sigs {
		c.Signal(sig)
	}
	// Looked up once: without cgroups it reads every process's environment.
	outside := getSpawner().outsideGroup(c.owner, c.pid)
	c.leftGroup = c.leftGroup || len(outside) > 0
	for _, sig := range sigs {
		signalAll(outside, sig)
	}
}

// outsideGroup lists the processes of owner's run that are not in its
// process group pgid (those already signalled with it, which must not get
// the signal twice: a second SIGTERM or SIGINT means "quit now" to many
// servers). They are its cgroup's members where it has one, else the
// processes that carry its marker.
func (s *spawner) outsideGroup(owner Owner, pgid int) []int {
	var members []int
	if dir, ok := s.cgroupDir(owner); ok {
		members = osproc.CgroupMembers(dir)
	} else {
		members = FindMarked(owner.String())
	}
	out := members[:0]
	for _, pid := range members {
		if group, err := osproc.Getpgid(pid); err == nil && group != pgid {
			out = append(out, pid)
		}
	}
	return out
}

// cgroupDir returns the cgroup folder of owner's run, if it has one.
func (s *spawner) cgroupDir(owner Owner) (string, bool) {
	if e := s.engine(owner); e != nil && e.cgroups != nil {
		return e.cgroups.dir(owner)
	}
	return "", false
}
