// Package floor measures what the machine itself allows for the work procs
// does at scale: forking a set of `sh -c 'echo ready; exec sleep …'`
// children, reading each one's first line, and ending them with SIGTERM. It
// does nothing else (no log, no detection, no cgroup), so that procs'
// figures can be given as a ratio to this floor measured in the same run
// rather than as absolute times that move with the machine's load.
package floor

import "time"

// Shape says how the children depend on each other.
type Shape int

const (
	// Flat children depend on nothing: all are forked at once, and all are
	// signalled at once.
	Flat Shape = iota
	// Tree children form a binary tree (child i waits for (i-1)/2): a child
	// is forked once its parent's first line is read, and signalled once
	// all its own children have exited, as procs orders a start and a
	// shutdown.
	Tree
)

// String names the shape as the benchmarks do.
func (s Shape) String() string {
	if s == Tree {
		return "tree"
	}
	return "flat"
}

// Result is one measured launch and shutdown.
type Result struct {
	// AllReady is from the first fork until every child's first line was
	// read.
	AllReady time.Duration
	// Down is from the first SIGTERM until every child was reaped.
	Down time.Duration
}
