package main

import (
	"context"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules/agentstream"
)

// learnAgents asks which of the processes run an agent CLI in its JSON
// mode, whose lines logs shows as a conversation rather than raw JSON.
func (v *logView) learnAgents(ctx context.Context, c *control.Client) {
	if v.json.on() {
		return // --json keeps the events as they came
	}
	list, err := c.List(ctx)
	if err != nil {
		return // raw lines are still right
	}
	for _, st := range list {
		if st.Agent != nil {
			if v.agents == nil {
				v.agents = map[string]agentstream.Protocol{}
			}
			v.agents[st.Name] = agentstream.Protocol(st.Agent.Protocol)
		}
	}
}

// learnAgentsOffline is learnAgents for `procs logs` when no procs runs:
// the protocol comes from the folder's procs.yaml, as detection takes it
// (agent:, else the command line). A config that does not load leaves the
// lines raw.
func (v *logView) learnAgentsOffline(load func() (*config.Config, error)) {
	if v.json.on() {
		return
	}
	cfg, err := load()
	if err != nil {
		return
	}
	for name, p := range cfg.Procs {
		if protocol := p.AgentProtocol(); protocol != "" {
			if v.agents == nil {
				v.agents = map[string]agentstream.Protocol{}
			}
			v.agents[name] = protocol
		}
	}
}

// printLine shows a line of output: for an agent in JSON mode, the
// conversation it holds (assistant text, one line per tool call, the
// result), nothing for a line that says nothing to a reader.
func (v *logView) printLine(l control.LogLine) error {
	protocol, ok := v.agents[l.Proc]
	if !ok {
		return v.print(l.Proc, l.Time, l.Line)
	}
	text, ok := protocol.Render(l.Line)
	if !ok {
		return v.print(l.Proc, l.Time, l.Line)
	}
	for _, line := range splitLines(text) {
		if err := v.print(l.Proc, l.Time, line); err != nil {
			return err
		}
	}
	return nil
}

// splitLines cuts text into its lines; "" has none.
func splitLines(text string) []string {
	var lines []string
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			lines = append(lines, text[start:i])
			start = i + 1
		}
	}
	if start < len(text) {
		lines = append(lines, text[start:])
	}
	return lines
}
