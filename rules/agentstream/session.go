package agentstream

// Phase is where an agent session is, as its events say.
type Phase int

// The phases of a session.
const (
	// PhaseStarting is before the session's init event.
	PhaseStarting Phase = iota
	// PhaseBusy is from a prompt (or the init of a one-shot run) until its
	// result.
	PhaseBusy
	// PhaseIdle is after a successful result: the session waits for a prompt.
	PhaseIdle
	// PhaseFailed is after an error result.
	PhaseFailed
	// PhasePermission is while the CLI waits for an answer to a permission
	// request.
	PhasePermission
)

// Session follows one run of an agent CLI in its JSON mode: feed it every
// line of its output and every prompt written to it. It is not safe for
// concurrent use.
type Session struct {
	Protocol Protocol
	Phase    Phase
	// ID and Model are what the session said of itself.
	ID, Model string
	// Answer is the text of the last result, or else of the last assistant
	// message: what the agent said last. Error is the error text of a
	// failed result, or the last warning.
	Answer, Error string
	// Spent is what this run spent, over its results.
	Spent Usage
	// Asking is the permission request waiting for an answer.
	Asking *Event
	// Warning is the last warning (Gemini's or Codex's error event).
	Warning string
	// Retrying is a warning with no progress since (Codex's "Reconnecting…
	// waiting for network"): the CLI retries by itself.
	Retrying string
	// Resulted says a result came: the run's last answer is known.
	Resulted bool

	lastText string
	steps    Usage // OpenCode's tool-calls steps, counted at their result
	// reported is the last result's figures of a CLI whose results say
	// what the session spent so far (SessionTotals); carried adds up what
	// was reported before its counters went back to zero.
	reported, carried Usage
	// input says the CLI reads its prompts on stdin (NewSession).
	input bool
}

// NewSession returns the session of one run.
// input says the CLI reads its prompts on stdin (Protocol.ReadsPrompts):
// it waits for one at its start rather than working on its command line's.
func NewSession(p Protocol, input bool) *Session { return &Session{Protocol: p, input: input} }

// Feed reads one line of output; ok is false for a line that is not JSON.
func (s *Session) Feed(line string) (events []Event, ok bool) {
	events, ok = s.Protocol.Decode(line)
	for _, ev := range events {
		s.apply(ev)
	}
	return events, ok
}

// Prompted says a prompt was written to the CLI: it is busy until the
// result, and a permission request it waited on is answered.
func (s *Session) Prompted() {
	if s.Phase == PhasePermission {
		s.Asking = nil
	}
	s.Phase = PhaseBusy
}

// Ask says the CLI asks whether it may use a tool through a channel other
// than its output (procs' MCP server, which Claude Code's
// --permission-prompt-tool calls): it waits for the answer.
func (s *Session) Ask(ev Event) {
	ev.Kind = KindPermission
	s.Phase, s.Asking = PhasePermission, &ev
}

// AskEnded says the request Ask reported was answered or withdrawn: the
// CLI works on.
func (s *Session) AskEnded() {
	if s.Phase == PhasePermission {
		s.Phase, s.Asking = PhaseBusy, nil
	}
}

func (s *Session) apply(ev Event) {
	if ev.Session != "" {
		s.ID = ev.Session
	}
	if ev.Model != "" {
		s.Model = ev.Model
	}
	if ev.Kind != KindWarning && ev.Kind != KindOther {
		s.Retrying = ""
	}
	switch ev.Kind {
	case KindInit:
		if s.Phase == PhaseStarting {
			// A one-shot run works on its prompt from its start; a session
			// with input waits for one.
			s.Phase = PhaseBusy
			if s.input {
				s.Phase = PhaseIdle
			}
		}
	case KindTurn:
		s.Phase, s.lastText = PhaseBusy, ""
	case KindTool, KindToolResult:
		s.Phase = PhaseBusy
	case KindText:
		if s.Phase != PhaseIdle {
			s.Phase = PhaseBusy
		}
		s.lastText += ev.Text
		if s.Protocol != Gemini || ev.Text == "" {
			s.lastText = ev.Text
		}
	case KindPermission:
		s.Phase, s.Asking = PhasePermission, &ev
	case KindWarning:
		s.Warning, s.Retrying = ev.Text, ev.Text
	case KindOther:
		s.steps.Add(ev.Usage)
	case KindResult:
		s.result(ev)
	}
}

func (s *Session) result(ev Event) {
	s.Resulted, s.Asking = true, nil
	ev.Usage.Add(s.steps)
	s.steps = Usage{}
	s.spend(ev.Usage)
	if ev.IsError {
		s.Phase, s.Error = PhaseFailed, ev.Text
		if s.Error == "" {
			s.Error = s.Warning
		}
		return
	}
	s.Phase, s.Error = PhaseIdle, ""
	s.Answer = ev.Text
	if s.Answer == "" {
		s.Answer = s.lastText
	}
	s.lastText = ""
}

// spend counts what a result reports. A CLI whose results report what its
// session spent so far (Protocol.SessionTotals) spent, in this run, what
// its last result says, not the sum of its results; should its counters
// go back (a login resets Claude Code's), what they said before is kept.
func (s *Session) spend(u Usage) {
	if !s.Protocol.SessionTotals() {
		s.Spent.Add(u)
		return
	}
	turns := s.Spent.Turns + u.Turns
	if u.CostUSD < s.reported.CostUSD || u.InputTokens < s.reported.InputTokens || u.OutputTokens < s.reported.OutputTokens {
		s.carried.Add(s.reported)
	}
	s.reported = Usage{CostUSD: u.CostUSD, InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
	s.Spent = s.carried
	s.Spent.Add(s.reported)
	s.Spent.Turns = turns
}
