package tui

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
	"github.com/procsdev/procs/rules/agentstream"
)

// TestAgentRowSaysWhatItSpent: an agent in its JSON mode shows, after its
// reason, what its session has spent in all (issue 31 item 3).
func TestAgentRowSaysWhatItSpent(t *testing.T) {
	m := offline(t, Options{}, 160, 30)
	m.Update(connectedMsg{info: control.Info{PID: 42, StartedAt: m.now()}, procs: []wire.ProcStatus{
		{Name: "agent", State: rules.StateReady, Run: 1, Reason: rules.ReasonReady, Message: `answered: "done"`,
			Agent: &wire.AgentStatus{Protocol: "claude-stream-json",
				Total: agentstream.Usage{CostUSD: 0.75, InputTokens: 300, OutputTokens: 30, Turns: 3}}},
	}})
	assert.Contains(t, lineOf(plain(m), "agent"), `answered: "done" · $0.75 · 300 in / 30 out tokens · 3 turns`)
}
