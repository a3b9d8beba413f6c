package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A generic runtime's run that shows nothing is assumed ready after
// AssumeReadyAfter when its program is idle (a worker waiting for work),
// later while it is still busy starting on a CPU (a server still
// importing), and at AssumeBusyMax at the latest; it never is if it exits
// first.
func TestAssumedReadyWaitsWhileTheProgramIsBusy(t *testing.T) {
	ready, err := CompilePatterns([]string{`(?i)\blistening on\b`})
	require.NoError(t, err)
	spec := &Spec{ReadyPatterns: ready, ReadyOnListen: true, AssumeReadyAfter: 3 * time.Second}
	require.True(t, spec.WatchesPrograms(), "the engine must send its programs")
	t0 := time.Now()
	at := func(d time.Duration) time.Time { return t0.Add(d) }

	t.Run("idle", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		d.Handle(Event{Kind: EventExec, Time: at(100 * time.Millisecond), Program: "python3 worker.py\n", Busy: false})
		due, ok := d.Deadline()
		require.True(t, ok)
		assert.Equal(t, at(3*time.Second), due)
		v, _ := d.Handle(Event{Kind: EventTimer, Time: due})
		assert.Equal(t, StateReady, v.State)
		assert.Equal(t, ReasonAssumed, v.Reason)
		assert.Contains(t, v.Message, "running for 3s")
	})

	t.Run("busy, then idle", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		d.Handle(Event{Kind: EventExec, Time: at(100 * time.Millisecond), Program: "python3 app.py\n", Busy: true})
		v, _ := d.Handle(Event{Kind: EventTimer, Time: at(3 * time.Second)})
		assert.Equal(t, StateStarting, v.State, "still importing")
		v, _ = d.Handle(Event{Kind: EventExec, Time: at(4500 * time.Millisecond), Program: "python3 app.py\n", Busy: false})
		assert.Equal(t, StateReady, v.State)
		assert.Contains(t, v.Message, "running for 4.5s")
	})

	t.Run("busy for ever", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		d.Handle(Event{Kind: EventExec, Time: at(100 * time.Millisecond), Program: "python3 spin.py\n", Busy: true})
		due, ok := d.Deadline()
		require.True(t, ok)
		assert.Equal(t, at(AssumeBusyMax), due)
		v, _ := d.Handle(Event{Kind: EventTimer, Time: due})
		assert.Equal(t, StateReady, v.State)
	})

	t.Run("exits first", func(t *testing.T) {
		d := NewDetector(spec, 1, t0)
		v, _ := d.Handle(Event{Kind: EventExit, Time: at(2 * time.Second), Exit: Exit{Code: 1}})
		assert.Equal(t, StateFailed, v.State)
	})
}
