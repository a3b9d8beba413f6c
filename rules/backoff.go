package rules

import (
	"context"
	"time"
)

// schedule says when a watcher that has no event to wait for (WatchPorts
// reads the socket tables, RunProbe asks a server) looks again: first
// after its first look, the wait doubling up to quick until quickFor has
// passed since the first look (none when quickFor is 0), then doubling
// up to limit. Quick while a program is starting, when the answer usually
// changes; then at a rate that costs nothing noticeable.
type schedule struct {
	first, quick, limit time.Duration
	quickFor            time.Duration
}

// after returns the wait before the next look, given the wait before this
// one (0 at the first look) and how long ago the first look was.
func (s schedule) after(wait, elapsed time.Duration) time.Duration {
	limit := s.limit
	if elapsed < s.quickFor {
		limit = min(s.quick, s.limit)
	}
	if wait == 0 {
		return min(s.first, limit)
	}
	return min(wait*2, limit)
}

// onBackoff calls look at once, then again on s, until ctx is done. look
// is told how long until its next call; it runs on the caller's goroutine
// and is never called after ctx is done.
func onBackoff(ctx context.Context, s schedule, look func(next time.Duration)) {
	began := time.Now()
	var wait time.Duration
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		wait = s.after(wait, time.Since(began))
		look(wait)
		timer.Reset(wait)
	}
}
