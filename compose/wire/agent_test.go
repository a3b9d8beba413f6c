package wire

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/rules/agentstream"
)

func TestSpentText(t *testing.T) {
	var none *AgentStatus
	assert.Empty(t, none.SpentText())
	assert.Empty(t, (&AgentStatus{Protocol: "claude-stream-json"}).SpentText())
	claude := &AgentStatus{Total: agentstream.Usage{CostUSD: 0.75, InputTokens: 300, OutputTokens: 30, Turns: 3}}
	assert.Equal(t, "$0.75 · 300 in / 30 out tokens · 3 turns", claude.SpentText())
	codex := &AgentStatus{Total: agentstream.Usage{InputTokens: 1200, OutputTokens: 34, Turns: 1}}
	assert.Equal(t, "1200 in / 34 out tokens · 1 turn", codex.SpentText())
}
