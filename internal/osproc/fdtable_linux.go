package osproc

import (
	"golang.org/x/sys/unix"
)

// ReserveFDs makes this process's descriptor table hold at least n
// descriptors (up to RLIMIT_NOFILE), so that opening them later does not
// grow it. Linux grows the table by doubling it, and growing a table that
// several threads share (a Go program's always is) waits for an RCU grace
// period (synchronize_rcu in expand_files) while every other descriptor
// allocation of the process waits too: about 10 ms each on a small VM, and
// 200 runs (six descriptors each) doubled it five times during a start.
// One growth to the size needed costs one wait. It blocks for that wait.
func ReserveFDs(n int) {
	var limit unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &limit); err == nil && uint64(n) > limit.Cur {
		n = int(limit.Cur)
	}
	if n <= 1 {
		return
	}
	// A descriptor at n-1 makes the table that large; F_DUPFD takes the
	// lowest free one from there, so it never replaces an open one.
	probe, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(probe)
	if high, err := unix.FcntlInt(uintptr(probe), unix.F_DUPFD_CLOEXEC, n-1); err == nil {
		unix.Close(high)
	}
}
