package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules/agentstream"
)

// TestLateInitEventIsReported: a session that takes its prompts on stdin
// and says nothing for the settle delay is ready, waiting for its first
// prompt; an init event that comes after (a CLI slow to start, a loaded
// machine) names the session and the model, and that is news: the verdict
// changes, so status shows them, instead of keeping the first message
// until the next prompt.
func TestLateInitEventIsReported(t *testing.T) {
	start := time.Now()
	d := NewDetector(&Spec{AgentProtocol: agentstream.Claude, AgentInput: true}, 1, start)

	v, changed := d.Handle(Event{Kind: EventTimer, Time: start.Add(d.settle())})
	require.True(t, changed)
	require.Equal(t, StateReady, v.State)
	require.Equal(t, "waiting for its first prompt", v.Message)

	init := `{"type":"system","subtype":"init","session_id":"s-1","model":"stand-in"}`
	v, changed = d.Handle(Event{Kind: EventLine, Time: start.Add(d.settle() + 200*time.Millisecond), Line: Line{Text: init, Raw: []byte(init)}})
	assert.True(t, changed, "the init event changed what the verdict says")
	assert.Equal(t, StateReady, v.State)
	assert.Contains(t, v.Message, "session started")
	require.NotNil(t, v.Agent)
	assert.Equal(t, "s-1", v.Agent.Session)
	assert.Equal(t, "stand-in", v.Agent.Model)
}
