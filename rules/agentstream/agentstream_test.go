package agentstream

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The lines below have the shapes the CLIs' own documentation gives:
//   - Claude Code: https://docs.claude.com/en/docs/claude-code/sdk/sdk-headless
//     (stream-json output and input) and the SDK's message types
//     (https://docs.claude.com/en/docs/claude-code/sdk/sdk-typescript);
//   - Codex: https://developers.openai.com/codex/noninteractive (JSON output);
//   - Gemini CLI: https://geminicli.com/docs/cli/headless/ (streaming JSON);
//   - OpenCode: https://opencode.ai/docs/cli/#run (--format json).

func TestSessionPhases(t *testing.T) {
	tests := []struct {
		name     string
		protocol Protocol
		lines    []string
		prompted bool // a prompt is written before the lines
		phase    Phase
		answer   string
		errText  string
		spent    Usage
	}{
		{name: "claude init waits for a prompt", protocol: Claude,
			lines: []string{`{"type":"system","subtype":"init","session_id":"s1","model":"claude-sonnet-4","tools":["Bash"]}`},
			phase: PhaseIdle},
		{name: "claude turn with a tool", protocol: Claude, prompted: true, lines: []string{
			`{"type":"system","subtype":"init","session_id":"s1","model":"m"}`,
			`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]},"session_id":"s1"}`,
			`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.go"}]},"session_id":"s1"}`,
			`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"One file."}]},"session_id":"s1"}`,
		}, phase: PhaseBusy},
		{name: "claude success result", protocol: Claude, prompted: true, lines: []string{
			`{"type":"system","subtype":"init","session_id":"s1","model":"m"}`,
			`{"type":"result","subtype":"success","is_error":false,"duration_ms":1200,"num_turns":1,"result":"One file.","session_id":"s1","total_cost_usd":0.0123,"usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":100,"cache_creation_input_tokens":20}}`,
		}, phase: PhaseIdle, answer: "One file.",
			spent: Usage{CostUSD: 0.0123, InputTokens: 10, OutputTokens: 5, CacheReadTokens: 100, CacheWriteTokens: 20, Turns: 1}},
		{name: "claude error result", protocol: Claude, prompted: true, lines: []string{
			`{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login","session_id":"s1","total_cost_usd":0,"usage":{"input_tokens":0,"output_tokens":0}}`,
		}, phase: PhaseFailed, errText: "Invalid API key · Please run /login", spent: Usage{Turns: 1}},
		{name: "claude max turns", protocol: Claude, prompted: true, lines: []string{
			`{"type":"result","subtype":"error_max_turns","is_error":true,"session_id":"s1","total_cost_usd":0.5,"usage":{"input_tokens":1,"output_tokens":2}}`,
		}, phase: PhaseFailed, errText: "error_max_turns", spent: Usage{CostUSD: 0.5, InputTokens: 1, OutputTokens: 2, Turns: 1}},
		{name: "claude permission", protocol: Claude, prompted: true, lines: []string{
			`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"rm -rf build"}}}`,
		}, phase: PhasePermission},
		{name: "codex one prompt", protocol: Codex, lines: []string{
			`{"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}`,
			`{"type":"turn.started"}`,
			`{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","status":"in_progress"}}`,
			`{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"docs\nsrc\n","exit_code":0,"status":"completed"}}`,
			`{"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"Repo contains docs and src."}}`,
			`{"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}}`,
		}, phase: PhaseIdle, answer: "Repo contains docs and src.",
			spent: Usage{InputTokens: 24763, CacheReadTokens: 24448, OutputTokens: 122, Turns: 1}},
		{name: "codex turn failed", protocol: Codex, lines: []string{
			`{"type":"thread.started","thread_id":"t"}`,
			`{"type":"turn.started"}`,
			`{"type":"error","message":"Reconnecting... 1/5"}`,
			`{"type":"turn.failed","error":{"message":"stream disconnected before completion"}}`,
		}, phase: PhaseFailed, errText: "stream disconnected before completion", spent: Usage{Turns: 1}},
		{name: "codex busy after init", protocol: Codex, lines: []string{`{"type":"thread.started","thread_id":"t"}`}, phase: PhaseBusy},
		{name: "gemini stream", protocol: Gemini, lines: []string{
			`{"type":"init","timestamp":"2025-10-10T12:00:00.000Z","session_id":"abc123","model":"gemini-2.0-flash-exp"}`,
			`{"type":"message","role":"user","content":"List files in current directory","timestamp":"2025-10-10T12:00:01.000Z"}`,
			`{"type":"tool_use","tool_name":"Bash","tool_id":"bash-123","parameters":{"command":"ls -la"},"timestamp":"2025-10-10T12:00:02.000Z"}`,
			`{"type":"tool_result","tool_id":"bash-123","status":"success","output":"file1.txt\nfile2.txt","timestamp":"2025-10-10T12:00:03.000Z"}`,
			`{"type":"message","role":"assistant","content":"Here are the files...","delta":true,"timestamp":"2025-10-10T12:00:04.000Z"}`,
			`{"type":"result","status":"success","stats":{"total_tokens":250,"input_tokens":50,"output_tokens":200,"duration_ms":3000,"tool_calls":1},"timestamp":"2025-10-10T12:00:05.000Z"}`,
		}, phase: PhaseIdle, answer: "Here are the files...", spent: Usage{InputTokens: 50, OutputTokens: 200, Turns: 1}},
		{name: "gemini error result", protocol: Gemini, lines: []string{
			`{"type":"init","session_id":"abc","model":"gemini-2.5-pro"}`,
			`{"type":"result","status":"error","error":{"type":"FatalAuthenticationError","message":"Please set an Auth method"},"stats":{"total_tokens":0,"input_tokens":0,"output_tokens":0}}`,
		}, phase: PhaseFailed, errText: "Please set an Auth method", spent: Usage{Turns: 1}},
		{name: "opencode steps", protocol: OpenCode, lines: []string{
			`{"type":"step_start","timestamp":1768191337567,"sessionID":"ses_1","part":{"type":"step-start","snapshot":"abc"}}`,
			`{"type":"tool_use","timestamp":1,"sessionID":"ses_1","part":{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"ls"},"output":"a.go"}}}`,
			`{"type":"step_finish","timestamp":2,"sessionID":"ses_1","part":{"type":"step-finish","reason":"tool-calls","cost":0.001,"tokens":{"input":100,"output":10,"reasoning":0,"cache":{"read":0,"write":0}}}}`,
			`{"type":"step_start","timestamp":3,"sessionID":"ses_1","part":{"type":"step-start"}}`,
			`{"type":"text","timestamp":4,"sessionID":"ses_1","part":{"type":"text","text":"hello"}}`,
			`{"type":"step_finish","timestamp":5,"sessionID":"ses_1","part":{"type":"step-finish","reason":"stop","cost":0.002,"tokens":{"input":200,"output":3,"reasoning":0,"cache":{"read":50,"write":0}}}}`,
		}, phase: PhaseIdle, answer: "hello", spent: Usage{CostUSD: 0.003, InputTokens: 300, OutputTokens: 13, CacheReadTokens: 50, Turns: 1}},
		{name: "opencode error", protocol: OpenCode, lines: []string{
			`{"type":"error","timestamp":1,"sessionID":"ses_1","error":{"name":"ProviderAuthError","data":{"message":"no API key"}}}`,
		}, phase: PhaseFailed, errText: "no API key", spent: Usage{Turns: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSession(tt.protocol, tt.protocol.TakesInput())
			if tt.prompted {
				s.Prompted()
			}
			for _, line := range tt.lines {
				_, ok := s.Feed(line)
				require.True(t, ok, line)
			}
			assert.Equal(t, tt.phase, s.Phase)
			assert.Equal(t, tt.answer, s.Answer)
			assert.Equal(t, tt.errText, s.Error)
			assert.InDelta(t, tt.spent.CostUSD, s.Spent.CostUSD, 1e-9)
			tt.spent.CostUSD, s.Spent.CostUSD = 0, 0
			assert.Equal(t, tt.spent, s.Spent)
		})
	}
}

// TestCostOverThreeTurns: Claude Code's results report what the session
// has spent so far (Protocol.SessionTotals names the sources), so three
// turns of $0.25 each read $0.25, $0.50, $0.75, and the run spent $0.75,
// not their sum; a CLI reporting each turn alone (Codex) adds them up.
func TestCostOverThreeTurns(t *testing.T) {
	s := NewSession(Claude, true)
	s.Feed(`{"type":"system","subtype":"init","session_id":"s","model":"m"}`)
	for i, total := range []string{"0.25", "0.5", "0.75"} {
		s.Prompted()
		s.Feed(fmt.Sprintf(`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s","total_cost_usd":%s,"usage":{"input_tokens":%d,"output_tokens":%d}}`, total, 100*(i+1), 10*(i+1)))
		assert.Equal(t, i+1, s.Spent.Turns)
	}
	assert.InDelta(t, 0.75, s.Spent.CostUSD, 1e-9)
	assert.Equal(t, Usage{CostUSD: s.Spent.CostUSD, InputTokens: 300, OutputTokens: 30, Turns: 3}, s.Spent)

	// A login resets Claude Code's counters: what was spent before stays.
	s.Prompted()
	s.Feed(`{"type":"result","subtype":"success","is_error":false,"result":"ok","session_id":"s","total_cost_usd":0.1,"usage":{"input_tokens":40,"output_tokens":4}}`)
	assert.InDelta(t, 0.85, s.Spent.CostUSD, 1e-9)
	assert.Equal(t, int64(340), s.Spent.InputTokens)

	codex := NewSession(Codex, false)
	for range 3 {
		codex.Feed(`{"type":"turn.completed","usage":{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10}}`)
	}
	assert.Equal(t, Usage{InputTokens: 300, OutputTokens: 30, Turns: 3}, codex.Spent)
}

func TestPermissionAnswer(t *testing.T) {
	s := NewSession(Claude, true)
	s.Feed(`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"}}}`)
	require.NotNil(t, s.Asking)
	assert.Equal(t, "Bash", s.Asking.Tool)
	assert.JSONEq(t, `{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"behavior":"allow","updatedInput":{"command":"ls"}}}}`,
		string(PermissionAnswer(*s.Asking, true, "")))
	assert.JSONEq(t, `{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"behavior":"deny","message":"not now"}}}`,
		string(PermissionAnswer(*s.Asking, false, "not now")))
	s.Prompted()
	assert.Nil(t, s.Asking)
	assert.Equal(t, PhaseBusy, s.Phase)
}

func TestUserMessage(t *testing.T) {
	msg := UserMessage("fix the test")
	assert.True(t, strings.HasSuffix(string(msg), "}\n"))
	assert.JSONEq(t, `{"type":"user","message":{"role":"user","content":"fix the test"}}`, string(msg))
}

func TestDetect(t *testing.T) {
	tests := []struct {
		command string
		want    Protocol
	}{
		{`claude -p --input-format stream-json --output-format stream-json --verbose`, Claude},
		{`/usr/bin/claude -p "fix it" --output-format=stream-json`, Claude},
		{`claude`, ""},
		{`claude -p hi --output-format json`, ""},
		{`codex exec --json "summarize"`, Codex},
		{`codex exec "summarize"`, ""},
		{`gemini -p "hi" --output-format stream-json`, Gemini},
		{`gemini -o stream-json -p hi`, Gemini},
		{`opencode run --format json "hi"`, OpenCode},
		{`opencode`, ""},
	}
	for _, tt := range tests {
		got, _ := Detect(tt.command)
		assert.Equal(t, tt.want, got, tt.command)
	}
}

func TestRender(t *testing.T) {
	lines := []string{
		`{"type":"system","subtype":"init","session_id":"s1","model":"m"}`,
		`{"type":"assistant","message":{"content":[{"type":"text","text":"Let me look."},{"type":"tool_use","name":"Bash","input":{"command":"ls -la"}}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","content":"a.go\nb.go"}]}}`,
		`{"type":"stream_event","event":{}}`,
		`{"type":"result","subtype":"success","is_error":false,"result":"Two files.","total_cost_usd":0.01,"usage":{"input_tokens":5,"output_tokens":7}}`,
		`node: warning`,
	}
	var out []string
	for _, l := range lines {
		text, ok := Claude.Render(l)
		if !ok {
			text = l
		}
		if text != "" {
			out = append(out, text)
		}
	}
	assert.Equal(t, "● session s1 m\nLet me look.\n⏺ Bash ls -la\n  ⎿ a.go b.go\n✔ done ($0.0100, 5 in / 7 out tokens)\nnode: warning", strings.Join(out, "\n"))
}

// ReadsPrompts: Claude Code reads prompts on stdin in a session
// (--input-format stream-json), not when its command asks for the JSON
// output alone; a command that says neither is taken at its protocol's
// word; the one-shot CLIs never do.
func TestReadsPrompts(t *testing.T) {
	for _, tc := range []struct {
		protocol Protocol
		command  string
		want     bool
	}{
		{Claude, `claude -p --input-format stream-json --output-format stream-json`, true},
		{Claude, `claude -p --output-format=stream-json --input-format=stream-json --verbose`, true},
		{Claude, `claude -p "fix the tests" --output-format stream-json`, false},
		{Claude, `python3 standin.py claude`, true},
		{Codex, `codex exec --json "fix it"`, false},
		{Gemini, `gemini -p "hi" --output-format stream-json`, false},
	} {
		assert.Equal(t, tc.want, tc.protocol.ReadsPrompts(tc.command), tc.command)
	}
}
