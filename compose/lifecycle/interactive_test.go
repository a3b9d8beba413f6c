package lifecycle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// newInteractiveRig is a rig whose one process, agent, is driven by input.
func newInteractiveRig(t *testing.T) *rig {
	t.Helper()
	cfg := parse(t, "procs:\n  agent:\n    command: agent\n")
	c := newClock()
	m := New(cfg, []string{"agent"}, map[string]bool{"agent": true}, map[string]bool{"agent": true}, Options{Clock: c.now})
	r := &rig{t: t, m: m, clock: c}
	m.Begin()
	r.take()
	m.Started("agent", m.Proc("agent").Run, 100)
	r.take()
	return r
}

// messagesOf lists the messages of the transitions among effects.
func messagesOf(effects []Effect) []string {
	var out []string
	for _, e := range effects {
		if t, ok := e.(Transition); ok {
			out = append(out, t.Message)
		}
	}
	return out
}

// TestPromptTypedIntoIsNotNews: a process driven by input that stays
// ready at its prompt while its screen changes (the prompt being typed
// into) publishes no event per change; status still reads the message.
func TestPromptTypedIntoIsNotNews(t *testing.T) {
	r := newInteractiveRig(t)
	run := r.m.Proc("agent").Run
	r.m.Verdict("agent", run, rules.Verdict{State: rules.StateReady, Reason: rules.ReasonReady, Message: "> "})
	require.Equal(t, []string{"> "}, messagesOf(r.take()))

	r.m.Verdict("agent", run, rules.Verdict{State: rules.StateReady, Reason: rules.ReasonReady, Message: "> hel"})
	assert.Empty(t, r.take())
	assert.Equal(t, "> hel", r.m.Proc("agent").Message)
}

// TestAgentSessionNewsIsPublished: a JSON-mode agent session taken for
// waiting for its first prompt, whose init event comes after (a CLI slow
// to start, a loaded machine), publishes the session it names: the
// detector reports an agent's verdict only when it says something new,
// and live views (procs events, the web page, the TUI) learn it from the
// event, not from status.
func TestAgentSessionNewsIsPublished(t *testing.T) {
	r := newInteractiveRig(t)
	run := r.m.Proc("agent").Run
	agent := &rules.AgentReport{Protocol: "claude-stream-json"}
	r.m.Verdict("agent", run, rules.Verdict{State: rules.StateReady, Reason: rules.ReasonReady, Message: "waiting for its first prompt", Agent: agent})
	require.Equal(t, []string{"waiting for its first prompt"}, messagesOf(r.take()))

	started := &rules.AgentReport{Protocol: "claude-stream-json", Session: "s-1", Model: "stand-in"}
	r.m.Verdict("agent", run, rules.Verdict{State: rules.StateReady, Reason: rules.ReasonReady, Message: "session started (model stand-in)", Agent: started})
	assert.Equal(t, []string{"session started (model stand-in)"}, messagesOf(r.take()))
}
