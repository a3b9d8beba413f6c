package contain

import (
	"os"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// adopted lists the processes that left the runs of this process's
// engines by being orphaned (a double fork, a daemon). Where procs is the
// subreaper (Linux), the kernel re-parented them to procs: they are its
// children it did not start (the caller tells those apart). Elsewhere
// (macOS, FreeBSD) they went to init: they are found by walking the
// process table, as the processes carrying the PROCS_OWNER marker of one
// of the engines whose parent carries none (the root of what escaped). An
// orphan that emptied its environment cannot be told from any other
// there. The caller holds s.forking (its callers do), not s.mu: the
// engines are read under s.mu here, once.
func (s *spawner) adopted() []int {
	if osproc.Features().Subreaper {
		return rules.ChildrenOf(os.Getpid())
	}
	s.mu.RLock()
	engines := make(map[string]bool, len(s.engines))
	for instance := range s.engines {
		engines[instance] = true
	}
	s.mu.RUnlock()
	self := os.Getpid()
	parents := osproc.Parents()
	// Every process's marker, from a read that began after parents were
	// listed (shared with the stops looking at the same moment).
	markers := scanMarked()
	ours := func(pid int) bool {
		marker, ok := markers[pid]
		return ok && engines[instanceOf(marker)]
	}
	var out []int
	for pid, parent := range parents {
		if pid != self && parent != self && ours(pid) && !ours(parent) {
			out = append(out, pid)
		}
	}
	return out
}
