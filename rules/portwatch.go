package rules

import (
	"context"
	"slices"
	"time"
)

// portWatchSchedule is when WatchPorts looks: from 10 ms, at most 50 ms
// apart for the first half minute, when a dev server usually binds, so a
// port is seen open at most 50 ms after it opens (an agent's restart
// waits for it); then settling at 250 ms apart, for a program that takes
// longer or listens elsewhere than declared. A look is one read of the
// machine's listeners, shared by every watcher (netlink, not /proc), and
// the watch ends with the run's start.
var portWatchSchedule = schedule{
	first: 10 * time.Millisecond, quick: 50 * time.Millisecond, quickFor: 30 * time.Second,
	limit: 250 * time.Millisecond,
}

// PortsBaseline is what the machine's listening sockets were before a
// process started: every listener the process opens is new to it. Two
// hundred processes starting at once each read their fd tables on their
// first look without one; with one, a look reads them only once a listener
// has appeared somewhere since. The zero value knows nothing.
type PortsBaseline struct {
	version uint64
	known   bool
}

// WatchPorts calls onChange with the full set of ports the tree under
// rootPID listens on whenever that set changes (the first call once it is
// not empty). The OS gives no change events, so it looks on
// portWatchSchedule. before is PortsBefore taken before the process
// started, or the zero baseline. It returns when ctx is done; the caller
// cancels ctx once the process is ready or has exited. onChange runs on the
// watcher's goroutine.
func WatchPorts(ctx context.Context, rootPID int, before PortsBaseline, onChange func([]int)) {
	w := newPortWatch(before)
	watchPorts(ctx, rootPID, &w, false, onChange)
}

// WatchPortsFrom is WatchPorts for a run already seen listening on known
// (nil or empty for none): its first call reports what the first look
// finds, whatever it is, and then each change, so a watcher restarted
// after a pause says at once whether the ports are still open.
func WatchPortsFrom(ctx context.Context, rootPID int, known []int, onChange func([]int)) {
	w := newPortWatch(PortsBaseline{})
	w.ports = slices.Clone(known)
	watchPorts(ctx, rootPID, &w, true, onChange)
}

// watchPorts looks at the ports of the tree under rootPID on the backoff
// and calls onChange with each change from what w last saw; reportFirst
// makes the first look a report even when nothing changed.
func watchPorts(ctx context.Context, rootPID int, w *portWatch, reportFirst bool, onChange func([]int)) {
	onBackoff(ctx, portWatchSchedule, func(next time.Duration) {
		// A read of the socket tables up to a quarter of the backoff old
		// is recent enough: it only delays this look, never hides a change.
		ports, changed := w.look(rootPID, next/4)
		if reportFirst && !changed {
			ports, changed = slices.Clone(w.ports), true
		}
		reportFirst = false
		if changed && ctx.Err() == nil {
			onChange(ports)
		}
	})
}
