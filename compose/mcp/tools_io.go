package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
)

// logsInput is the input of get_logs.
type logsInput struct {
	Name  string `json:"name,omitempty" jsonschema:"the process to read; every process when empty"`
	Lines int    `json:"lines,omitempty" jsonschema:"how many lines to return, the most recent ones (after grep)"`
	Since string `json:"since,omitempty" jsonschema:"only lines after this: a duration ago such as 5m, or an RFC 3339 time"`
	Grep  string `json:"grep,omitempty" jsonschema:"only lines matching this regular expression (RE2 syntax, e.g. (?i)error|warn)"`
}

// LogLines is the output of get_logs.
type LogLines struct {
	Lines []LogLine `json:"lines" jsonschema:"the lines, oldest first"`
}

// sendInputArgs is the arguments of send_input.
type sendInputArgs struct {
	Name  string   `json:"name" jsonschema:"the process to write to, as list_processes shows it"`
	Text  string   `json:"text,omitempty" jsonschema:"the text to write, as is"`
	Keys  []string `json:"keys,omitempty" jsonschema:"keys to press after the text, by name: esc, ctrl-c, ctrl-d, enter, tab, up, down, left, right, backspace... (always accepted, even when busy)"`
	Enter bool     `json:"enter,omitempty" jsonschema:"press Enter after the text (written once the text is echoed, so agent CLIs do not take it for a paste)"`
	Force bool     `json:"force,omitempty" jsonschema:"send even when an interactive process is busy (its state is not ready, awaiting-input or awaiting-permission); the text may land in the middle of its work"`
}

// InputSent is the output of send_input.
type InputSent struct {
	Name string `json:"name" jsonschema:"the process written to"`
	Sent bool   `json:"sent" jsonschema:"true once the text was written"`
}

// screenInput is the input of get_screen.
type screenInput struct {
	Name string `json:"name" jsonschema:"the process whose screen to read (one that runs in a terminal: pty in list_processes)"`
}

// defaultLogLines is how many lines get_logs returns.
const defaultLogLines = 50

func (s *Server) addIOTools() {
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "get_logs",
		Title: "Read process output",
		Description: "Read recent output of one process (or of all), colour codes removed, oldest first. Filter with since " +
			"(e.g. 5m) and grep (a regular expression, e.g. (?i)error) to find what went wrong without reading everything.",
		InputSchema: inputSchema[logsInput](map[string]any{"lines": defaultLogLines}),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, s.getLogs)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "send_input",
		Title: "Send input to a process",
		Description: "Write text to the input (or terminal) of a running process, such as an answer to a prompt or a command " +
			"for a REPL or an agent CLI; enter=true presses Enter after it. An interactive process (interactive in " +
			"list_processes) takes text only when it waits for it (ready, awaiting-input, awaiting-permission): when it is " +
			"busy the text is refused and the refusal says its state; wait_for_ready first, then send again (or force=true). " +
			"keys (esc, ctrl-c...) are always taken: they interrupt a busy program. get_screen shows what it asks.",
		InputSchema: inputSchema[sendInputArgs](nil),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(false)},
	}, s.sendInput)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "get_screen",
		Title: "Read a process's screen",
		Description: "What a process running in a terminal (an agent CLI, a REPL, a TUI) shows now, row by row, as a person " +
			"would see it: read it to answer a question or a dialog; get_logs of a TUI is a jumble of redraws.",
		InputSchema: inputSchema[screenInput](nil),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, s.getScreen)
}

func (s *Server) getScreen(ctx context.Context, _ *sdk.CallToolRequest, in screenInput) (*sdk.CallToolResult, wire.ScreenText, error) {
	c, err := s.connect()
	if err != nil {
		return nil, wire.ScreenText{}, err
	}
	defer c.Close()
	st, err := c.Screen(ctx, in.Name)
	if err != nil {
		return nil, st, s.failure(c, err, in.Name)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: st.Text}}}, st, nil
}

func (s *Server) getLogs(ctx context.Context, _ *sdk.CallToolRequest, in logsInput) (*sdk.CallToolResult, LogLines, error) {
	out := LogLines{Lines: []LogLine{}}
	if in.Lines <= 0 {
		in.Lines = defaultLogLines
	}
	var grep *regexp.Regexp
	if in.Grep != "" {
		var err error
		if grep, err = regexp.Compile(in.Grep); err != nil {
			return nil, out, failf("call again with a valid RE2 regular expression (or none).", "grep %q is not a valid regular expression: %v", in.Grep, err)
		}
	}
	c, err := s.connect()
	if err != nil {
		return nil, out, err
	}
	defer c.Close()
	opts := control.LogsOptions{Since: in.Since, Tail: &in.Lines}
	if grep != nil {
		all := -1 // the last N matching lines may lie before the last N lines
		opts.Tail = &all
	}
	if in.Name != "" {
		opts.Procs = []string{in.Name}
	}
	err = c.Logs(ctx, opts, func(l control.LogLine) error {
		if grep == nil || grep.MatchString(l.Line) {
			out.Lines = append(out.Lines, LogLine{Name: l.Proc, Run: l.Run, Time: l.Time, Stream: l.Stream, Text: l.Line})
		}
		return nil
	})
	if err != nil {
		return nil, out, s.failure(c, err, in.Name)
	}
	if len(out.Lines) > in.Lines {
		out.Lines = out.Lines[len(out.Lines)-in.Lines:]
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: logText(out.Lines, in.Name == "")}}}, out, nil
}

// logText renders lines as a model reads them best: one per line, prefixed
// with the process name when several processes are mixed.
func logText(lines []LogLine, prefixed bool) string {
	if len(lines) == 0 {
		return "(no lines)"
	}
	var b strings.Builder
	for _, l := range lines {
		if prefixed {
			fmt.Fprintf(&b, "%s | ", l.Name)
		}
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *Server) sendInput(ctx context.Context, _ *sdk.CallToolRequest, in sendInputArgs) (*sdk.CallToolResult, InputSent, error) {
	out := InputSent{Name: in.Name}
	text := in.Text
	for _, name := range in.Keys {
		if _, err := wire.KeySequence(name); err != nil {
			return nil, out, failf("call again with known key names.", "%v", err)
		}
	}
	if text == "" && len(in.Keys) == 0 && !in.Enter {
		return nil, out, failf("call again with text, keys or enter.", "nothing to send to %s", in.Name)
	}
	c, err := s.connect()
	if err != nil {
		return nil, out, err
	}
	defer c.Close()
	if err := c.Send(ctx, in.Name, control.InputRequest{Text: text, Keys: in.Keys, Enter: in.Enter, Force: in.Force}); err != nil {
		return nil, out, s.inputRefused(c, err, in.Name)
	}
	out.Sent = true
	return nil, out, nil
}

// inputRefused explains input the process did not take: busy (the refusal
// names its state), not running, or the other failures of any call.
func (s *Server) inputRefused(c *control.Client, err error, name string) error {
	var apiErr *control.APIError
	switch {
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict && apiErr.State != "":
		// Worded here, not quoted from procs: its message names CLI flags.
		why := fmt.Sprintf("%s is %s, not ready for input", name, apiErr.State)
		if apiErr.StateMessage != "" {
			why += " (" + apiErr.StateMessage + ")"
		}
		return failf(fmt.Sprintf("call wait_for_ready {\"name\": %q} until it waits for input, then send again; or send with force=true to type into it now. "+
			"keys (ctrl-c, esc) are always taken.", name),
			"%s did not take the input: %s.", name, why)
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict:
		return failf("call get_process to see its state; start_process starts it if it is stopped, then send again.",
			"%s did not take the input: %s", name, apiErr.Message)
	}
	return s.failure(c, err, name)
}
