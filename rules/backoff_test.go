package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// looks walks s for span and returns the waits between its looks.
func looks(s schedule, span time.Duration) (waits []time.Duration, at []time.Duration) {
	var wait, elapsed time.Duration
	for elapsed < span {
		wait = s.after(wait, elapsed)
		waits, at = append(waits, wait), append(at, elapsed)
		elapsed += wait
	}
	return waits, at
}

// TestPortWatchLooksOftenWhileAServerUsuallyBinds: a port is seen open
// at most portWatchQuick after it opens for the first half minute of a
// run (a dev server that binds after 1.2 s was seen 110 ms late on a
// backoff up to 250 ms: an agent's restart waited for it), the first
// looks quicker still; past that, the looks settle to one each 250 ms.
func TestPortWatchLooksOftenWhileAServerUsuallyBinds(t *testing.T) {
	waits, at := looks(portWatchSchedule, time.Minute)
	assert.Equal(t, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond, 50 * time.Millisecond}, waits[:4])
	for i, wait := range waits {
		if at[i] < portWatchSchedule.quickFor {
			assert.LessOrEqual(t, wait, 50*time.Millisecond, "look %d at %s", i, at[i])
		}
	}
	assert.Equal(t, 250*time.Millisecond, waits[len(waits)-1])
}

// TestProbeScheduleDoublesUpToItsInterval: a probe starts quick and
// settles at its interval; a steady one keeps its interval from the first.
func TestProbeScheduleDoublesUpToItsInterval(t *testing.T) {
	waits, _ := looks(probeSchedule(time.Second), 3*time.Second)
	assert.Equal(t, []time.Duration{probeFirstWait, 2 * probeFirstWait}, waits[:2])
	assert.Equal(t, time.Second, waits[len(waits)-1])
	steady, _ := looks(steadySchedule(time.Second), 3*time.Second)
	assert.Equal(t, []time.Duration{time.Second, time.Second, time.Second}, steady)
}
