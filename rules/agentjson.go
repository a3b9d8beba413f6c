package rules

import (
	"strings"
	"time"

	"github.com/procsdev/procs/rules/agentstream"
)

// AgentReport is what the run of an agent CLI in its JSON mode said of
// itself: its session, what it spent, and its last answer.
type AgentReport struct {
	Protocol agentstream.Protocol
	Session  string
	Model    string
	// Spent is what this run spent, over its results.
	Spent agentstream.Usage
	// Answer is the agent's last answer (the last result's text).
	Answer string
	// Asking is the permission request waiting for an answer, nil when none.
	Asking *agentstream.Event
}

// handleAgent decides the state of a run of an agent CLI in its JSON mode
// (Spec.AgentProtocol) from the protocol's events, not from patterns: its
// lines say exactly when a turn starts and ends. The exit is handleExit's.
func (d *Detector) handleAgent(ev Event) {
	switch ev.Kind {
	case EventLine:
		text := d.absorbLine(ev.Line, ev.Time)
		if _, ok := d.agent.Feed(text); !ok && strings.TrimSpace(text) != "" && !d.agent.Resulted {
			d.remember(text)
		}
	case EventInput:
		d.agent.Prompted()
	case EventPermission:
		if ev.Permission != nil {
			d.agent.Ask(*ev.Permission)
		} else {
			d.agent.AskEnded()
		}
	case EventTimer:
		if d.agent.Phase == agentstream.PhaseStarting && d.awaitsFirstPrompt(ev.Time) {
			d.agentWaits = true
		}
	default:
		d.absorb(ev)
		return
	}
	d.verdict = d.agentVerdict()
}

// awaitsFirstPrompt reports whether a session that takes its prompts on
// stdin has been quiet since its start for the settle delay: Claude Code
// with --input-format stream-json says init only once a first prompt came.
func (d *Detector) awaitsFirstPrompt(now time.Time) bool {
	return d.spec.AgentInput && !now.Before(d.started.Add(d.settle()))
}

// agentVerdict maps the session's phase to a state.
func (d *Detector) agentVerdict() Verdict {
	s := d.agent
	v := Verdict{Agent: d.agentReport()}
	switch s.Phase {
	case agentstream.PhaseStarting:
		if !d.agentWaits {
			v.State, v.Reason, v.Message = StateStarting, ReasonStarting, "starting: no init event yet"
			return v
		}
		v.State, v.Reason, v.Message = StateReady, ReasonReady, "waiting for its first prompt"
	case agentstream.PhaseBusy:
		v.State, v.Reason, v.Message = StateBusy, ReasonBusy, "working on its prompt"
		d.up = true
		if s.Retrying != "" {
			v.State, v.Reason, v.Recoverable, v.Line = StateFailed, ReasonRecoverable, true, s.Retrying
			v.Message = "error event " + quote(s.Retrying) + "; the CLI retries by itself"
		}
	case agentstream.PhaseIdle:
		d.up = true
		v.State, v.Reason, v.Message = StateReady, ReasonReady, "session started"
		if s.Model != "" {
			v.Message += " (model " + s.Model + ")"
		}
		if s.Resulted {
			v.Message = "answered: " + quote(answerLine(s.Answer))
		}
		if d.spec.Task {
			// A one-shot run is done at its exit, not at its answer.
			v.State, v.Reason, v.Message = StateBusy, ReasonBusy, "answered, exiting"
		}
	case agentstream.PhaseFailed:
		v.State, v.Reason, v.Message, v.Line = StateFailed, ReasonError, "error result: "+s.Error, s.Error
	case agentstream.PhasePermission:
		v.State, v.Reason = StateAwaitingPermission, ReasonPermission
		v.Message = "asks to use " + strings.TrimSpace(s.Asking.Tool+" "+s.Asking.Input) + ` (answer with procs send NAME "yes" or "no: why")`
	}
	return v
}

// agentReport is a copy of what the session knows, for the verdict.
func (d *Detector) agentReport() *AgentReport {
	s := d.agent
	r := &AgentReport{Protocol: s.Protocol, Session: s.ID, Model: s.Model, Spent: s.Spent, Answer: s.Answer}
	if s.Asking != nil {
		asking := *s.Asking
		r.Asking = &asking
	}
	return r
}

// agentExit completes the verdict of an agent run that exited: a task
// that exited 0 after an error result failed, and the message of a task
// is the agent's answer (or its error text) rather than an exit code.
func (d *Detector) agentExit(v Verdict, e Exit) Verdict {
	s := d.agent
	v.Agent = d.agentReport()
	switch {
	case s.Phase == agentstream.PhaseFailed && v.State != StateStopped:
		v.State, v.Reason, v.Line = StateFailed, ReasonError, s.Error
		v.Message = "error result: " + s.Error + "; then " + e.describe()
	case v.State == StateCompleted && s.Resulted:
		v.Message = s.Answer
	case v.State == StateFailed && s.Warning != "" && d.lastStderr == "":
		v.Message, v.Line = e.describe()+"; "+quote(s.Warning), s.Warning
	}
	return v
}

// answerLine is the first line of text, cut for a status message.
func answerLine(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if r := []rune(line); len(r) > 120 {
		line = string(r[:119]) + "…"
	}
	return line
}
