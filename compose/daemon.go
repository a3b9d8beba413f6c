package compose

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/procsdev/procs/rules"
)

// daemonized is what a run left behind when its main process exited: the
// roots re-parented to procs (the subreaper) and every process below them.
type daemonized struct {
	roots []int
	all   []int
}

// leftBehind finds what the run marked owner left running once its main
// process is gone, when it daemonized: a direct child of procs that procs
// did not start, whose tree carries the run's marker, or carries no marker
// at all (nginx overwrites its environment with its process title) and
// started after the run (startTicks, from /proc/PID/stat; 0 when unknown).
func (s *spawner) leftBehind(owner string, startTicks uint64) daemonized {
	s.forking.Lock()
	defer s.forking.Unlock()
	var d daemonized
	for _, pid := range rules.ChildrenOf(unix.Getpid()) {
		if s.started(pid) {
			continue
		}
		tree, err := rules.ProcessTree(pid)
		if err != nil {
			continue
		}
		ours := len(markedAmong(tree, owner)) > 0
		if !ours && startTicks != 0 && !marked(pid) {
			ticks, ok := procStartTicks(pid)
			ours = ok && ticks >= startTicks
		}
		if ours {
			d.roots = append(d.roots, pid)
			d.all = append(d.all, tree...)
		}
	}
	return d
}

// describe turns what was left behind into the detector's terms.
func (d daemonized) describe() *rules.Daemon {
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

// stop ends what was left behind: sig to every process, then SIGKILL to
// those still there after grace. The roots are procs's children, so they
// are reaped here.
func (d daemonized) stop(sig unix.Signal, grace time.Duration) {
	if len(d.roots) == 0 {
		return
	}
	signalAll(d.all, sig)
	signalAll(d.all, unix.SIGCONT)
	reaped := make(chan struct{}, len(d.roots))
	for _, root := range d.roots {
		go func() {
			var status unix.WaitStatus
			_, _ = unix.Wait4(root, &status, 0, nil)
			reaped <- struct{}{}
		}()
	}
	timeout := time.NewTimer(grace)
	defer timeout.Stop()
	for range d.roots {
		select {
		case <-reaped:
		case <-timeout.C:
			signalAll(d.all, unix.SIGKILL)
			return
		}
	}
	// Descendants outlived their root by a moment, or ignored sig.
	signalAll(d.all, unix.SIGKILL)
}

// marked reports whether pid's environment carries any PROCS_OWNER.
func marked(pid int) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	return err == nil && bytes.Contains(env, []byte(ownerVar+"="))
}

// procStartTicks returns when pid started, in clock ticks since boot
// (field 22 of /proc/PID/stat).
func procStartTicks(pid int) (uint64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	s := string(data)
	// The command name, field 2, is in parentheses and may hold spaces.
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	const startTimeField = 22 - 3 // fields[0] is field 3
	if len(fields) <= startTimeField {
		return 0, false
	}
	ticks, err := strconv.ParseUint(fields[startTimeField], 10, 64)
	return ticks, err == nil
}
