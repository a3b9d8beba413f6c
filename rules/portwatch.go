package rules

import (
	"context"
	"slices"
	"time"
)

// The backoff of WatchPorts: quick at first, when a dev server usually
// binds, then settling at a rate that costs nothing noticeable.
const (
	portWatchFirst = 10 * time.Millisecond
	portWatchMax   = 250 * time.Millisecond
)

// ListeningPorts returns the TCP ports (IPv4 and IPv6, LISTEN state) that
// the process tree under rootPID listens on, sorted. A listener of any
// other process, even on the same port, does not count. It fails when
// rootPID is gone or /proc cannot be read.
func ListeningPorts(rootPID int) ([]int, error) {
	listeners, err := tcpListeners()
	if err != nil {
		return nil, err
	}
	tree, err := processTree(rootPID)
	if err != nil {
		return nil, err
	}
	if len(listeners) == 0 {
		return nil, nil
	}
	var ports []int
	for _, pid := range tree {
		socketInodes(pid, func(inode uint64) {
			if port, ok := listeners[inode]; ok {
				ports = append(ports, port)
			}
		})
	}
	slices.Sort(ports)
	return slices.Compact(ports), nil
}

// WatchPorts calls onChange with the full set of ports the tree under
// rootPID listens on whenever that set changes (the first call once it is
// not empty). /proc has no change events, so it looks on a backoff from
// 10 ms doubling to 250 ms. It returns when ctx is done; the caller cancels
// ctx once the process is ready or has exited. onChange runs on the
// watcher's goroutine.
func WatchPorts(ctx context.Context, rootPID int, onChange func([]int)) {
	var last []int
	wait := portWatchFirst
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		// A vanished process has no ports; its exit reaches the engine
		// another way, so errors are not reported here.
		ports, _ := ListeningPorts(rootPID)
		if !slices.Equal(ports, last) && ctx.Err() == nil {
			last = ports
			onChange(slices.Clone(ports))
		}
		timer.Reset(wait)
		wait = min(wait*2, portWatchMax)
	}
}
