// Package agentstream reads the machine-readable modes of agent CLIs: the
// JSON lines Claude Code (-p --output-format stream-json), Codex (exec
// --json), Gemini CLI (-p --output-format stream-json) and OpenCode (run
// --format json) print, and the messages Claude Code reads on its stdin
// (--input-format stream-json). It is pure, like rules.Detector: lines go
// in, events and a session's state come out.
package agentstream

import (
	"slices"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// Protocol names the JSON mode of one agent CLI.
type Protocol string

// The protocols procs reads.
const (
	// Claude is Claude Code's stream-json: a session that stays open when
	// its input is stream-json too, one result per prompt.
	Claude Protocol = "claude-stream-json"
	// Codex is `codex exec --json`: one prompt, thread and turn events.
	Codex Protocol = "codex-json"
	// Gemini is Gemini CLI's `--output-format stream-json`: one prompt.
	Gemini Protocol = "gemini-stream-json"
	// OpenCode is `opencode run --format json`: one prompt, step events.
	OpenCode Protocol = "opencode-json"
)

// Protocols lists every protocol, in the order the docs show them.
func Protocols() []Protocol { return []Protocol{Claude, Codex, Gemini, OpenCode} }

// Known reports whether name is a protocol procs reads.
func Known(name string) bool { return slices.Contains(Protocols(), Protocol(name)) }

// detection is which command line asks which CLI for its JSON mode.
var detection = []struct {
	program, mode *lazyregexp.Regexp
	protocol      Protocol
}{
	{lazyregexp.New(`(^|[\s/])claude(\s|$)`), lazyregexp.New(`--output-format[= ]stream-json`), Claude},
	{lazyregexp.New(`(^|[\s/])codex(\s|$)`), lazyregexp.New(`(^|\s)(e|exec)\s(.*\s)?--json(\s|$)|(^|\s)(e|exec)\s(.*\s)?--experimental-json(\s|$)`), Codex},
	{lazyregexp.New(`(^|[\s/])gemini(\s|$)`), lazyregexp.New(`(--output-format|-o)[= ]stream-json`), Gemini},
	{lazyregexp.New(`(^|[\s/])opencode(\s|$)`), lazyregexp.New(`(^|\s)run\s(.*\s)?--format[= ]json(\s|$)`), OpenCode},
}

// Detect returns the protocol a command line asks its agent CLI for:
// `claude -p --output-format stream-json`, `codex exec --json`, `gemini -p
// … --output-format stream-json`, `opencode run --format json`.
func Detect(command string) (Protocol, bool) {
	for _, d := range detection {
		if d.program.MatchString(command) && d.mode.MatchString(command) {
			return d.protocol, true
		}
	}
	return "", false
}

// TakesInput reports whether the CLI can read prompts on its stdin while
// its session stays open (Claude Code with --input-format stream-json); the
// others take one prompt on their command line.
func (p Protocol) TakesInput() bool { return p == Claude }

// ReadsPrompts reports whether the CLI that command runs reads its prompts
// on stdin: a protocol that can, unless the command asks for the JSON
// output alone (`claude -p "…" --output-format stream-json` runs the one
// prompt of its command line). A command that says neither (a wrapper,
// with agent: in procs.yaml) is taken at its protocol's word.
func (p Protocol) ReadsPrompts(command string) bool {
	return p.TakesInput() && (!streamOutput.MatchString(command) || streamInput.MatchString(command))
}

// streamOutput and streamInput are Claude Code's flags for its JSON modes.
var (
	streamOutput = lazyregexp.New(`--output-format[= ]stream-json\b`)
	streamInput  = lazyregexp.New(`--input-format[= ]stream-json\b`)
)

// SessionTotals reports whether the CLI's results say what its session has
// spent so far rather than what the prompt they answer cost. Claude Code's
// do: in 2.1.197 a result's total_cost_usd is its process-wide cost
// tracker (the one /cost and the status line show, reset only by a login)
// and its usage the sum of its per-model usage, both kept over the
// prompts of a stream-json session; the Agent SDK's cost tracking page
// (https://code.claude.com/docs/en/agent-sdk/cost-tracking) calls them "a
// cumulative total on the result message", each query() (one CLI
// process) reporting "its own cost independently". Codex's turn.completed
// and OpenCode's step_finish report each turn or step alone; Gemini CLI's
// one-shot result reports its one prompt.
func (p Protocol) SessionTotals() bool { return p == Claude }
