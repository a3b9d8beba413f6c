package compose

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
	"github.com/procsdev/procs/rules/agentstream"
)

// agentRun is one run of an agent CLI as its reports tell it: the session
// it says it is, and what its results said it had spent (the session's
// totals for Claude Code), none when it ended before any result.
type agentRun struct {
	session string
	results []agentstream.Usage
}

// spentUSD is a result that says cost dollars and turns results.
func spentUSD(cost float64, turns int) agentstream.Usage {
	return agentstream.Usage{CostUSD: cost, InputTokens: int64(cost * 400), Turns: turns}
}

// TestAgentSpendingOverRuns: each run's spending and the total over runs,
// from the reports of each run. Claude Code's results say what its session
// has spent so far, and a run that resumes the session (--continue,
// --resume ID, -c) starts from what the session had spent: it spent only
// what it adds, even when a run between ended before any result (that run
// changed nothing the session had spent) or before it even said its
// session. A CLI whose results say each turn alone adds them up.
func TestAgentSpendingOverRuns(t *testing.T) {
	tests := []struct {
		name      string
		protocol  agentstream.Protocol
		runs      []agentRun
		run, want agentstream.Usage
	}{
		{"new session each run", agentstream.Claude,
			[]agentRun{{"s-1", []agentstream.Usage{spentUSD(0.25, 1), spentUSD(0.5, 2)}}, {"s-2", []agentstream.Usage{spentUSD(0.25, 1)}}},
			spentUSD(0.25, 1), spentUSD(0.75, 3)},
		{"resumed", agentstream.Claude,
			[]agentRun{{"s-1", []agentstream.Usage{spentUSD(0.5, 2)}}, {"s-1", []agentstream.Usage{spentUSD(0.75, 1), spentUSD(1, 2)}}},
			spentUSD(0.5, 2), spentUSD(1, 4)},
		{"resumed twice", agentstream.Claude,
			[]agentRun{{"s-1", []agentstream.Usage{spentUSD(0.5, 2)}}, {"s-1", []agentstream.Usage{spentUSD(0.75, 1)}}, {"s-1", []agentstream.Usage{spentUSD(1, 1)}}},
			spentUSD(0.25, 1), spentUSD(1, 4)},
		{"resumed after a run with no result", agentstream.Claude,
			[]agentRun{{"s-1", []agentstream.Usage{spentUSD(0.5, 2)}}, {"s-1", nil}, {"s-1", []agentstream.Usage{spentUSD(0.75, 1)}}},
			spentUSD(0.25, 1), spentUSD(0.75, 3)},
		{"resumed after a run that never said its session", agentstream.Claude,
			[]agentRun{{"s-1", []agentstream.Usage{spentUSD(0.5, 2)}}, {"", nil}, {"s-1", []agentstream.Usage{spentUSD(0.75, 1)}}},
			spentUSD(0.25, 1), spentUSD(0.75, 3)},
		// Claude Code (2.1.197) restores a session's spending only when it
		// was the project's last one: an older one starts from nothing.
		{"resumed an older session", agentstream.Claude,
			[]agentRun{{"s-1", []agentstream.Usage{spentUSD(0.5, 2)}}, {"s-2", []agentstream.Usage{spentUSD(0.25, 1)}}, {"s-1", []agentstream.Usage{spentUSD(0.25, 1)}}},
			spentUSD(0.25, 1), spentUSD(1, 4)},
		{"each turn alone", agentstream.Codex,
			[]agentRun{{"t-1", []agentstream.Usage{spentUSD(0.5, 1)}}, {"t-1", []agentstream.Usage{spentUSD(0.25, 1)}}},
			spentUSD(0.25, 1), spentUSD(0.75, 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Engine{}
			ps := &procState{cfg: &config.Proc{Name: "agent"}, detect: &rules.Spec{AgentProtocol: tt.protocol}}
			for i, r := range tt.runs {
				run := i + 1
				e.noteAgent(ps, run, agentVerdict(tt.protocol, r.session, agentstream.Usage{}))
				for _, spent := range r.results {
					e.noteAgent(ps, run, agentVerdict(tt.protocol, r.session, spent))
				}
			}
			status := ps.agentStatus()
			assert.InDelta(t, tt.run.CostUSD, status.Run.CostUSD, 1e-9, "run")
			assert.Equal(t, tt.run.InputTokens, status.Run.InputTokens, "run")
			assert.Equal(t, tt.run.Turns, status.Run.Turns, "run")
			assert.InDelta(t, tt.want.CostUSD, status.Total.CostUSD, 1e-9, "total")
			assert.Equal(t, tt.want.InputTokens, status.Total.InputTokens, "total")
			assert.Equal(t, tt.want.Turns, status.Total.Turns, "total")
			assert.Equal(t, status.Total, ps.agentSpent())
		})
	}
}

// agentVerdict is a verdict whose report says session and spent.
func agentVerdict(p agentstream.Protocol, session string, spent agentstream.Usage) rules.Verdict {
	return rules.Verdict{State: rules.StateReady, Agent: &rules.AgentReport{Protocol: p, Session: session, Spent: spent}}
}
