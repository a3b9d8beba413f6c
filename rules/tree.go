package rules

import "github.com/procsdev/procs/internal/osproc"

// ProcessTree returns root and all its descendants, root first; it fails
// (os.ErrNotExist) when root is gone. The process table is read the way the
// platform allows (osproc).
func ProcessTree(root int) ([]int, error) { return osproc.ProcessTree(root) }

// ChildrenOf lists the direct children of pid (none when it is gone).
func ChildrenOf(pid int) []int { return osproc.ChildrenOf(pid) }
