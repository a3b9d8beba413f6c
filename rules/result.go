package rules

import (
	"strings"
	"time"
)

// ResultLogLines is how many lines of output a Result carries.
const ResultLogLines = 10

// Result is the one structured answer to every wait (ARCHITECTURE.md §4), used by
// the CLI, the API and MCP alike.
type Result struct {
	Name       string   `json:"name"`
	Success    bool     `json:"success"`
	State      State    `json:"state"`
	Run        int      `json:"run"`
	DurationMs int64    `json:"durationMs"`
	Message    string   `json:"message"`
	Ports      []int    `json:"ports"`
	Logs       []string `json:"logs"`
}

// NewResult builds the result of waiting for run of name, started at
// started, now that v is its verdict. success says whether v is what the
// caller waited for. Logs are the last lines of this run from ring (nil
// for none), stripped, blank ones left out (a screen-clearing dev server
// prints dozens that would push out the lines that matter).
func NewResult(name string, run int, v Verdict, success bool, started, now time.Time, ports []int, ring *Ring) Result {
	res := Result{
		Name: name, Success: success, State: v.State, Run: run,
		DurationMs: now.Sub(started).Milliseconds(),
		Message:    v.Message,
		Ports:      ports,
		Logs:       []string{},
	}
	if v.Reason != "" {
		res.Message = v.Reason.With(v.Message)
	}
	if res.Ports == nil {
		res.Ports = []int{}
	}
	if ring != nil {
		res.Logs = RunLogs(ring, started)
		if !success {
			res.Logs = FailureLogs(ring, started, v.Line)
		}
	}
	return res
}

// RunLogs returns what a Result carries of a run's output: the last
// ResultLogLines non-blank lines ring holds from since (when the run
// started) on, stripped. Output of earlier runs never counts.
func RunLogs(ring *Ring, since time.Time) []string {
	return lastTexts(ring.Since(since), ResultLogLines)
}

// FailureLogs is RunLogs for a failed run whose deciding line is cause:
// when cause is not among the last lines (a stack trace followed it), the
// lines around it instead, so the result shows what explains the failure.
func FailureLogs(ring *Ring, since time.Time, cause string) []string {
	lines := ring.Since(since)
	all := lastTexts(lines, len(lines))
	at := -1
	for i := len(all) - 1; i >= 0 && cause != ""; i-- {
		if all[i] == cause {
			at = i
			break
		}
	}
	if at < 0 || at >= len(all)-ResultLogLines {
		return lastN(all, ResultLogLines)
	}
	start := max(0, at-causeContextBefore)
	return all[start:min(len(all), start+ResultLogLines)]
}

// causeContextBefore is how many lines before the cause a result shows
// (a Python frame, Node's file:line and the code it quotes).
const causeContextBefore = 5

func lastN(lines []string, n int) []string {
	return lines[max(0, len(lines)-n):]
}

// lastTexts returns the stripped text of the last n non-blank lines.
func lastTexts(lines []Line, n int) []string {
	out := make([]string, 0, n)
	for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
		if strings.TrimSpace(lines[i].Text) != "" {
			out = append(out, lines[i].Text)
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
