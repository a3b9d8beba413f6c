package main

import (
	"fmt"

	"github.com/procsdev/procs/rules"
)

// agentReadyWhen says what makes an agent CLI run in its JSON mode ready,
// following rules/agentjson.go: the protocol's events, not lines matching
// patterns. A one-shot run (claude -p "…", codex exec --json) works on the
// prompt of its command line from its start; a session that reads prompts
// on stdin waits for them.
func agentReadyWhen(spec *rules.Spec) string {
	switch {
	case spec.Task && !spec.AgentInput:
		return "never: it works on the prompt of its command line (starting until its first event, then busy until its final result); " +
			"it is completed when it then exits 0, with the answer of its final result as its message"
	case spec.Task:
		return "never: a task has nothing to be ready for; busy from each prompt to its result, " +
			"it is completed when it exits 0, with the answer of its last result as its message"
	case !spec.AgentInput:
		return "when the final result of the prompt of its command line is a success (starting until its first event, then busy until that result)"
	}
	return fmt.Sprintf("when its init event says the session started (or, with no init event after %s, waiting for its first prompt: "+
		"Claude Code says init only once one came); then busy from each prompt to its result, and ready again after a successful one", spec.Settle())
}

// agentFailedWhen says what makes an agent CLI run in its JSON mode failed:
// an error result, and its exit as for any process. An error result ends
// a session's turn, not the session.
func agentFailedWhen(spec *rules.Spec) string {
	switch {
	case spec.Task:
		return "on an error result, with the error text as its message (even if it then exits 0), or when it exits with a code other than 0"
	case spec.AgentInput:
		return "on an error result, until the next prompt (the session goes on), or when it exits (even with code 0: a service is meant to keep running)"
	}
	return "on an error result, or when it exits (even with code 0: a service is meant to keep running)"
}
