package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/control"
)

// listInput is the input of list_processes: nothing.
type listInput struct{}

// ProcessList is the output of list_processes.
type ProcessList struct {
	Processes []Process `json:"processes" jsonschema:"every process of procs.yaml, in start order"`
}

// getInput is the input of get_process.
type getInput struct {
	Name  string `json:"name" jsonschema:"the process name, as list_processes shows it"`
	Lines int    `json:"lines,omitempty" jsonschema:"how many of its last log lines to include"`
}

// ProcessDetail is the output of get_process.
type ProcessDetail struct {
	Process Process  `json:"process" jsonschema:"its state"`
	Logs    []string `json:"logs" jsonschema:"its last lines of output, oldest first"`
}

// defaultProcessLines is how many log lines get_process includes.
const defaultProcessLines = 20

func (s *Server) addStatusTools() {
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "list_processes",
		Title: "List processes",
		Description: "List every process of this project with its state (ready, starting, failed, stopped, ...), run number, pid, " +
			"listening ports, restart count and the reason of its last change. Start here to see what runs and what is broken.",
		InputSchema: inputSchema[listInput](nil),
		Annotations: readOnly,
	}, s.listProcesses)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "get_process",
		Title: "Get one process",
		Description: "Get the state of one process (state, run, pid, ports, reason, message, exit code) together with " +
			"its last log lines. Use it to find out why a process is failed or not ready.",
		InputSchema: inputSchema[getInput](map[string]any{"lines": defaultProcessLines}),
		Annotations: readOnly,
	}, s.getProcess)
}

func (s *Server) listProcesses(ctx context.Context, _ *sdk.CallToolRequest, _ listInput) (*sdk.CallToolResult, ProcessList, error) {
	var out ProcessList
	c, err := s.connect()
	if err != nil {
		return nil, out, err
	}
	defer c.Close()
	list, err := c.ListUsage(ctx)
	if err != nil {
		return nil, out, s.failure(c, err, "")
	}
	out.Processes = make([]Process, len(list))
	for i, st := range list {
		out.Processes[i] = processOf(st)
	}
	return nil, out, nil
}

func (s *Server) getProcess(ctx context.Context, _ *sdk.CallToolRequest, in getInput) (*sdk.CallToolResult, ProcessDetail, error) {
	var out ProcessDetail
	c, err := s.connect()
	if err != nil {
		return nil, out, err
	}
	defer c.Close()
	st, err := c.GetUsage(ctx, in.Name)
	if err != nil {
		return nil, out, s.failure(c, err, in.Name)
	}
	out.Process = processOf(st)
	out.Logs = []string{}
	if in.Lines > 0 {
		lines := in.Lines
		err = c.Logs(ctx, control.LogsOptions{Procs: []string{in.Name}, Tail: &lines}, func(l control.LogLine) error {
			out.Logs = append(out.Logs, l.Line)
			return nil
		})
		if err != nil {
			return nil, out, s.failure(c, err, in.Name)
		}
	}
	return nil, out, nil
}
