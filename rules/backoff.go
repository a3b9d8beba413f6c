package rules

import (
	"context"
	"time"
)

// onBackoff calls look at once, then again after first, doubling the wait
// up to limit, until ctx is done. It is the loop of the watchers that have
// no event to wait for (WatchPorts reads /proc, RunProbe asks a server):
// quick while a program is starting, when the answer usually changes, then
// at a rate that costs nothing noticeable. look is told how long until
// its next call; it runs on the caller's goroutine and is never called
// after ctx is done.
func onBackoff(ctx context.Context, first, limit time.Duration, look func(next time.Duration)) {
	wait := min(first, limit)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		look(wait)
		timer.Reset(wait)
		wait = min(wait*2, limit)
	}
}
