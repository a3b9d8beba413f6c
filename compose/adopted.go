package compose

import (
	"os"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// adopted lists the processes that left the runs of this process's
// engines by being orphaned (a double fork, a daemon): where procs is the
// subreaper (Linux), the kernel re-parented them to procs, so they are its
// children it did not start (the caller tells those apart). Elsewhere
// (macOS, FreeBSD) they went to init: they are the children of init that
// carry the PROCS_OWNER marker of one of the engines. An orphan that
// emptied its environment cannot be told from any other there. The caller
// holds s.mu.
func (s *spawner) adopted() []int {
	if osproc.Features().Subreaper {
		return rules.ChildrenOf(os.Getpid())
	}
	var out []int
	for _, pid := range rules.ChildrenOf(1) {
		if instance, ok := ownerOf(pid); ok && s.engines[instance] != nil {
			out = append(out, pid)
		}
	}
	return out
}
