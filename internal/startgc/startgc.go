// Package startgc lets the garbage collector run less often while procs
// starts its processes. Starting is procs' busiest moment and its heap is
// small then (a few MB): at the runtime's default pace it collects every
// few milliseconds (eight times in the first 300 ms of a 200-process
// start), each time on a core the processes being started need. The
// start's garbage is given back to the system once all are ready (compose
// does it), so a higher pace for those seconds costs no memory for long.
// It imports nothing of procs.
package startgc

import (
	"os"
	"runtime/debug"
	"sync"
	"time"
)

// startPercent is GOGC while starting: the heap may grow to five times
// what is live before a collection, tens of MB at most for hundreds of
// processes.
const startPercent = 400

var (
	mu      sync.Mutex
	holders int
	saved   int
)

// Begin sets the start's pace and returns the function that ends it, which
// may be called more than once; the pace ends by itself after limit, so
// that a start that never completes does not keep it. Begins may overlap
// (engines of tests in one process): the default pace comes back when the
// last ends. A GOGC the user set is left alone.
func Begin(limit time.Duration) (end func()) {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	mu.Lock()
	if holders == 0 {
		saved = debug.SetGCPercent(startPercent)
	}
	holders++
	mu.Unlock()
	var once sync.Once
	release := func() {
		once.Do(func() {
			mu.Lock()
			defer mu.Unlock()
			holders--
			if holders == 0 {
				debug.SetGCPercent(saved)
			}
		})
	}
	timer := time.AfterFunc(limit, release)
	return func() {
		timer.Stop()
		release()
	}
}
