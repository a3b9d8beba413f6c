package compose

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

func TestAllReadySummaryOnceEverythingIsUp(t *testing.T) {
	var allReadyCalls atomic.Int32 // Options.AllReady, once, with the summary
	te := startEngine(t, `
procs:
  db: {command: "echo up; sleep 60", readyPatterns: [up]}
  migrate: {kind: task, command: "echo migrated", dependsOn: [db]}
  api: {command: "sleep 0.1; echo up; sleep 60", readyPatterns: [up], dependsOn: {migrate: completed}}
  off: {command: "sleep 60", disabled: true}
`, Options{NoWatchdog: true, AllReady: func() { allReadyCalls.Add(1) }})
	var before []Event
	summary := te.waitFor("all-ready summary", func(ev Event) bool {
		before = append(before, ev)
		return ev.Type == EventInfo && ev.Reason == rules.ReasonAllReady
	})
	log := stateLog(before)
	require.Contains(t, log, "api:ready", "the summary comes after the last process is ready")
	assert.Contains(t, summary.Message, "all 3 ready in ")
	assert.Contains(t, summary.Message, "db ")
	assert.Contains(t, summary.Message, "api ")
	assert.Contains(t, summary.Message, "completed: migrate")
	assert.NotContains(t, summary.Message, "off")
	assert.Eventually(t, func() bool { return allReadyCalls.Load() == 1 }, 10*time.Second, time.Millisecond)

	// A restart brings api back, but the startup summary is not repeated.
	_, err := te.Restart("api")
	require.NoError(t, err)
	var after []Event
	te.waitFor("api ready again", func(ev Event) bool {
		after = append(after, ev)
		return ev.Type == EventState && ev.Proc == "api" && ev.To == rules.StateReady
	})
	for _, ev := range after {
		assert.NotEqual(t, rules.ReasonAllReady, ev.Reason)
	}
	assert.Equal(t, int32(1), allReadyCalls.Load(), "nor is Options.AllReady called again")
}

// TestAllReadyWaitsForAnAgentPastItsFirstRunDialog: an agent that asks
// before it starts (a theme picker, a trust dialog) has not come up: the
// summary waits for its prompt, and says how long that took.
func TestAllReadyWaitsForAnAgentPastItsFirstRunDialog(t *testing.T) {
	te := startEngine(t, fakeAgentConfig(""), Options{NoWatchdog: true})
	var before []Event
	te.waitFor("agent at its theme picker", func(ev Event) bool {
		before = append(before, ev)
		return ev.Type == EventState && ev.Proc == "agent" && ev.To == rules.StateAwaitingInput
	})
	te.send("agent", "\r")
	summary := te.waitFor("all-ready summary", func(ev Event) bool {
		before = append(before, ev)
		return ev.Type == EventInfo && ev.Reason == rules.ReasonAllReady
	})
	require.Contains(t, stateLog(before), "agent:ready", "not at the dialog")
	assert.NotContains(t, summary.Message, "-", "a time, not a negative one")
}
