// Package osproc is procs' platform layer: everything about processes that
// differs between Linux, macOS, FreeBSD and Windows is here, and nowhere
// else. It says how a child is started (its own process group, a
// parent-death signal where the kernel has one), how a process group is
// signalled and reaped, how the descendants of a process are found, what
// environment a process carries (procs marks its children with PROCS_OWNER),
// and whose process is at the other end of the control socket.
//
// Each operating system has one file: osproc_linux.go, osproc_darwin.go,
// osproc_freebsd.go and osproc_windows.go, with what Unix systems share in
// osproc_unix.go. Features says what the running platform provides, so that
// callers never claim a guarantee the platform lacks.
//
// It imports no procs package.
package osproc

import (
	"errors"
	"fmt"
	"os"
)

// ErrLocked is returned by LockFile when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// ErrUnsupported is returned (wrapped) by an operation the platform lacks.
var ErrUnsupported = errors.New("not supported on this platform")

// Platform says what the running operating system lets procs do. The
// README's "Platforms" section describes the same facts for users.
type Platform struct {
	// Name is the operating system, as GOOS spells it.
	Name string
	// Subreaper: orphaned descendants are re-parented to procs (Linux's
	// PR_SET_CHILD_SUBREAPER), so what a run left is found among procs'
	// own children, and procs reaps it.
	Subreaper bool
	// ParentDeathSignal: the kernel kills each child when procs dies,
	// even by SIGKILL (Linux's Pdeathsig). Elsewhere the watchdog does it.
	ParentDeathSignal bool
	// Cgroups: each run may get a cgroup v2 of its own (Linux only).
	Cgroups bool
	// ProcessGroups: each run has a process group procs signals as one.
	ProcessGroups bool
	// Jobs: each run is in a job object that dies with procs (Windows).
	Jobs bool
	// PTY: processes can run in a pseudo-terminal.
	PTY bool
	// GracefulStop: a stop can ask a process to end (a signal) before
	// killing it.
	GracefulStop bool
	// PeerCredentials: the control socket checks the user of each client.
	PeerCredentials bool
}

// Features describes the running platform.
func Features() Platform { return platformFeatures() }

// ProcessTree returns root and all its descendants, root first. It fails
// when root is gone.
func ProcessTree(root int) ([]int, error) {
	if !Alive(root) {
		return nil, fmt.Errorf("find process %d: %w", root, os.ErrNotExist)
	}
	return descendantsOf(root), nil
}

// walkTree lists root and every descendant, breadth first, given the
// children of each process.
func walkTree(root int, childrenOf func(int) []int) []int {
	tree := []int{root}
	seen := map[int]bool{root: true}
	for i := 0; i < len(tree); i++ {
		for _, child := range childrenOf(tree[i]) {
			if !seen[child] {
				seen[child] = true
				tree = append(tree, child)
			}
		}
	}
	return tree
}

// procEntry is one row of the process table, where the OS gives the whole
// table in one read (everywhere but Linux, whose /proc names each
// process's children).
type procEntry struct {
	pid, ppid int
}

// childrenIndex maps each parent in table to its children.
func childrenIndex(table []procEntry) map[int][]int {
	index := make(map[int][]int, len(table))
	for _, p := range table {
		if p.pid != p.ppid { // pid 0 on Windows is its own parent
			index[p.ppid] = append(index[p.ppid], p.pid)
		}
	}
	return index
}

// errUnsupported says what the platform lacks.
func errUnsupported(what string) error {
	return fmt.Errorf("%s: %w (%s)", what, ErrUnsupported, Features().Name)
}

// parentsFrom maps each process of table to its parent.
func parentsFrom(table []procEntry) map[int]int {
	parents := make(map[int]int, len(table))
	for _, p := range table {
		parents[p.pid] = p.ppid
	}
	return parents
}
