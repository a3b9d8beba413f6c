//go:build darwin || freebsd

package osproc

import (
	"net"

	"golang.org/x/sys/unix"
)

// ChildrenOf lists the direct children of pid (none when it is gone),
// from one read of the process table.
func ChildrenOf(pid int) []int { return childrenIndex(processTable())[pid] }

// descendantsOf walks one read of the process table from root.
func descendantsOf(root int) []int {
	index := childrenIndex(processTable())
	return walkTree(root, func(pid int) []int { return index[pid] })
}

// AllPIDs lists every process of the machine.
func AllPIDs() []int {
	table := processTable()
	pids := make([]int, 0, len(table))
	for _, p := range table {
		pids = append(pids, p.pid)
	}
	return pids
}

// PeerUID returns the uid of the process at the other end of a Unix
// socket (LOCAL_PEERCRED, what getpeereid(3) reads).
func PeerUID(conn *net.UnixConn) (int, error) {
	var cred *unix.Xucred
	err := controlFD(conn, func(fd int) (err error) {
		cred, err = unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		return err
	})
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}

// Parents maps every process of the machine to its parent, from one read
// of the process table.
func Parents() map[int]int { return parentsFrom(processTable()) }
