package contain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestALookTimerActsOnlyForItsOwnStop: a stop's timer that fires just as
// a second stop replaces its look (Stop came too late) leaves the second
// stop's look to the second timer: it neither makes that look early nor
// forgets how to ask whether the second stop's main process has exited.
func TestALookTimerActsOnlyForItsOwnStop(t *testing.T) {
	saved := outsideLookDelay
	outsideLookDelay = time.Hour // the test fires the timers itself
	t.Cleanup(func() { outsideLookDelay = saved })
	var d deferredLook
	defer d.drop()
	var looks []string
	running := func() bool { return false }
	d.arm(func() { looks = append(looks, "first") }, running)
	d.arm(func() { looks = append(looks, "second") }, running)

	d.atTimer(1) // the first stop's timer, already firing as the second armed
	assert.Empty(t, looks, "the first stop's timer made the second stop's look")
	d.mu.Lock()
	assert.NotNil(t, d.mainExited, "the first stop's timer cleared the second stop's question")
	d.mu.Unlock()

	d.atTimer(2)
	assert.Equal(t, []string{"second"}, looks, "the second stop's timer makes its look")
}
