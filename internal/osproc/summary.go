package osproc

import (
	"runtime"
	"strings"
)

// Summary says in one line what the platform gives procs and what it
// lacks, for `procs --version`: "linux/amd64: a cgroup per run, ...;
// without ...".
func (p Platform) Summary() string {
	facts := []struct {
		ok        bool
		has, lack string
	}{
		{p.Cgroups, "a cgroup per run (where cgroup v2 is writable)", "cgroups"},
		{p.Subreaper, "subreaper", "subreaper"},
		{p.ParentDeathSignal, "parent-death signal", "parent-death signal (the watchdog stands in)"},
		{p.ProcessGroups, "process groups", "process groups"},
		{p.Jobs, "a job object per run", ""}, // only Windows has them
		{p.GracefulStop, "graceful stop", "graceful stop"},
		{p.PTY, "PTY", "PTY"},
		{p.PeerCredentials, "peer check on the control socket", "peer check on the control socket"},
	}
	var with, without []string
	for _, f := range facts {
		switch {
		case f.ok:
			with = append(with, f.has)
		case f.lack != "":
			without = append(without, f.lack)
		}
	}
	line := p.Name + "/" + runtime.GOARCH + ": " + strings.Join(with, ", ")
	if len(without) > 0 {
		line += "; without " + strings.Join(without, ", ")
	}
	return line
}
