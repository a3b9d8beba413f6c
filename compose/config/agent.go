package config

import (
	"github.com/procsdev/procs/rules/agentstream"
)

// Agent is the JSON mode of an agent CLI (agent:): the protocol its
// output speaks and its input takes.
type Agent struct {
	Protocol string `json:"protocol" jsonschema:"enum=claude-stream-json,enum=codex-json,enum=gemini-stream-json,enum=opencode-json" jsonschema_description:"The CLI's JSON mode: claude-stream-json (claude -p --output-format stream-json, with --input-format stream-json for a session that takes prompts), codex-json (codex exec --json), gemini-stream-json (gemini -p … --output-format stream-json), opencode-json (opencode run --format json)."`
}

// AgentProtocol is the JSON mode the process's agent CLI speaks: agent:'s
// protocol, else the one its command line asks for; "" when neither.
func (p *Proc) AgentProtocol() agentstream.Protocol {
	if p.Agent != nil && p.Agent.Protocol != "" {
		return agentstream.Protocol(p.Agent.Protocol)
	}
	protocol, _ := agentstream.Detect(p.Command.String())
	return protocol
}

// agent reads {protocol}.
func (d *decoder) agent(path []string, v any) *Agent {
	m, ok := d.mapping(path, v, agentKeys)
	if !ok {
		return nil
	}
	var names []string
	for _, p := range agentstream.Protocols() {
		names = append(names, string(p))
	}
	a := &Agent{Protocol: d.word(child(path, "protocol"), m["protocol"], names, "protocol")}
	if m["protocol"] == nil {
		d.p.atKey(path, "missing protocol: the CLI's JSON mode, one of claude-stream-json, codex-json, gemini-stream-json, opencode-json")
	}
	return a
}
