package contain

import (
	"bytes"
	"slices"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// Daemons is what a run left behind when its main process exited: the
// roots re-parented away from it and every process below them.
type Daemons struct {
	roots []int
	all   []int
}

// leftBehind finds what the run marked owner left running once its main
// process is gone, when it daemonized: an orphan (see adopted) in the
// run's cgroup, where it has one: a daemon cannot leave it. Without one,
// an orphan whose tree carries the run's marker or, where procs is the
// subreaper, carries no marker at all (nginx clears its environment, redis
// writes its title over it) and started after the run (startTicks, from
// osproc.StartTime; 0 when unknown): a guess, which two such runs started
// together both make of each other's daemon. Elsewhere an orphan's parent
// is init, whose children procs does not own, so only the marker says a
// process is the run's.
func (s *spawner) leftBehind(owner Owner, startTicks uint64) Daemons {
	s.forking.Lock()
	defer s.forking.Unlock()
	var d Daemons
	var inCgroup []int
	dir, hasCgroup := s.cgroupDir(owner)
	if hasCgroup {
		inCgroup = osproc.CgroupMembers(dir)
	}
	for _, pid := range s.adopted() {
		if s.started(pid) || hasCgroup && !slices.Contains(inCgroup, pid) {
			continue
		}
		tree, err := rules.ProcessTree(pid)
		if err != nil {
			continue
		}
		ours := hasCgroup || len(markedAmong(tree, owner.String())) > 0
		if !ours && startTicks != 0 && !Marked(pid) && osproc.Features().Subreaper {
			ticks, ok := osproc.StartTime(pid)
			ours = ok && ticks >= startTicks
		}
		if ours {
			d.roots = append(d.roots, pid)
			d.all = append(d.all, tree...)
		}
	}
	return d
}

// Describe turns what was left behind into the detector's terms (nil:
// nothing was).
func (d Daemons) Describe() *rules.Daemon {
	if len(d.roots) == 0 {
		return nil
	}
	var ports []int
	for _, root := range d.roots {
		p, _ := rules.ListeningPorts(root)
		ports = append(ports, p...)
	}
	slices.Sort(ports)
	return &rules.Daemon{PID: d.roots[0], Command: rules.CommandLine(d.roots[0]), Ports: slices.Compact(ports)}
}

// Stop ends what was left behind: sig to every process, then SIGKILL to
// those still there after grace. Where the roots are procs's children
// they are reaped here.
func (d Daemons) Stop(sig syscall.Signal, grace time.Duration) {
	if len(d.roots) == 0 {
		return
	}
	signalAll(d.all, sig)
	signalAll(d.all, osproc.SIGCONT)
	reaped := make(chan struct{}, len(d.roots))
	for _, root := range d.roots {
		go func() {
			osproc.WaitGone(root)
			reaped <- struct{}{}
		}()
	}
	timeout := time.NewTimer(grace)
	defer timeout.Stop()
	for range d.roots {
		select {
		case <-reaped:
		case <-timeout.C:
			signalAll(d.all, syscall.SIGKILL)
			return
		}
	}
	// Descendants outlived their root by a moment, or ignored sig.
	signalAll(d.all, syscall.SIGKILL)
}

// Marked reports whether pid's environment carries any owner marker.
func Marked(pid int) bool {
	env, err := osproc.Environ(pid)
	return err == nil && bytes.Contains(env, []byte(OwnerVar+"="))
}
