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

// inputInput is the input of send_input.
type inputInput struct {
	Name  string `json:"name" jsonschema:"the process to write to, as list_processes shows it"`
	Text  string `json:"text" jsonschema:"the text to write, as is"`
	Enter bool   `json:"enter,omitempty" jsonschema:"press Enter after the text"`
	Force bool   `json:"force,omitempty" jsonschema:"send even when an interactive process is busy (its state is not ready, awaiting-input or awaiting-permission); the text may land in the middle of its work"`
}

// InputSent is the output of send_input.
type InputSent struct {
	Name string `json:"name" jsonschema:"the process written to"`
	Sent bool   `json:"sent" jsonschema:"true once the text was written"`
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
			"list_processes) takes input only when it waits for it (ready, awaiting-input, awaiting-permission): when it is " +
			"busy the input is refused and the refusal says its state; wait_for_ready first, then send again (or force=true).",
		InputSchema: inputSchema[inputInput](nil),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(false)},
	}, s.sendInput)
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

func (s *Server) sendInput(ctx context.Context, _ *sdk.CallToolRequest, in inputInput) (*sdk.CallToolResult, InputSent, error) {
	out := InputSent{Name: in.Name}
	c, err := s.connect()
	if err != nil {
		return nil, out, err
	}
	defer c.Close()
	if err := c.Send(ctx, in.Name, control.InputRequest{Text: in.Text, Enter: in.Enter, Force: in.Force}); err != nil {
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
		return failf(fmt.Sprintf("call wait_for_ready {\"name\": %q} until it waits for input, then send again; or send with force=true to type into it now.", name),
			"%s did not take the input: %s", name, apiErr.Message)
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict:
		return failf("call get_process to see its state; start_process starts it if it is stopped, then send again.",
			"%s did not take the input: %s", name, apiErr.Message)
	}
	return s.failure(c, err, name)
}
