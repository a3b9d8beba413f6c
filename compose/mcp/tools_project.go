package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// upInput is the input of up.
type upInput struct {
	Wait    bool   `json:"wait,omitempty" jsonschema:"wait until every process is ready (tasks: completed) or one fails"`
	Timeout string `json:"timeout,omitempty" jsonschema:"how long to wait, as a duration such as 2m"`
}

// UpResult is the output of up.
type UpResult struct {
	Started   bool     `json:"started" jsonschema:"true when this call started procs; false when it was already running"`
	PID       int      `json:"pid,omitempty" jsonschema:"process id of procs"`
	Message   string   `json:"message" jsonschema:"what happened"`
	Processes []Result `json:"processes" jsonschema:"with wait: how each process ended up, in start order"`
}

// downInput is the input of down.
type downInput struct {
	Timeout string `json:"timeout,omitempty" jsonschema:"how long to wait for everything to stop, as a duration such as 1m"`
}

// DownResult is the output of down.
type DownResult struct {
	Stopped bool   `json:"stopped" jsonschema:"true once procs and every process it ran have stopped"`
	Message string `json:"message" jsonschema:"what happened"`
}

// Defaults of up and down.
const (
	defaultUpTimeout   = 2 * time.Minute
	defaultDownTimeout = 2 * time.Minute
)

func (s *Server) addProjectTools() {
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "up",
		Title: "Start the project",
		Description: "Start procs for this project in the background, running every process of procs.yaml in dependency order " +
			"(as `procs up -d --wait`), and by default wait until all are ready. If procs already runs, nothing is restarted: it " +
			"waits for the processes to be ready and reports them. Use it when other tools say no procs is running.",
		InputSchema: inputSchema[upInput](map[string]any{"wait": true, "timeout": defaultUpTimeout.String()}),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(false), IdempotentHint: true},
	}, s.up)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "down",
		Title: "Stop the project",
		Description: "Stop every process in reverse dependency order and end procs, and return once all have stopped. " +
			"Nothing is left running; call up to start again.",
		InputSchema: inputSchema[downInput](map[string]any{"timeout": defaultDownTimeout.String()}),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true},
	}, s.down)
}

func (s *Server) up(ctx context.Context, _ *sdk.CallToolRequest, in upInput) (*sdk.CallToolResult, UpResult, error) {
	out := UpResult{Processes: []Result{}}
	timeout, err := parseTimeout("timeout", in.Timeout, defaultUpTimeout)
	if err != nil {
		return nil, out, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+requestSlack)
	defer cancel()
	c, err := s.dial()
	if errors.Is(err, control.ErrNotRunning) {
		if s.opts.Start == nil {
			return nil, out, failf("run `procs up -d` in that folder, then call this tool again.",
				"No procs is running in %s, and this MCP server cannot start one.", s.opts.Dir)
		}
		if err := s.opts.Start(ctx); err != nil {
			return nil, out, failf("fix what the lines above say (often procs.yaml), then call up again.",
				"Could not start procs in %s: %v", s.opts.Dir, err)
		}
		out.Started = true
		c, err = s.dial()
	}
	if err != nil {
		return nil, out, s.failure(nil, err, "")
	}
	defer c.Close()
	s.logs.resume()
	if info, err := c.Info(ctx); err == nil {
		out.PID = info.PID
	}
	verb := "was already running"
	if out.Started {
		verb = "started"
	}
	out.Message = fmt.Sprintf("procs %s in %s (pid %d)", verb, s.opts.Dir, out.PID)
	if !in.Wait {
		return nil, out, nil
	}
	if out.Processes, err = waitAll(ctx, c, timeout); err != nil {
		return nil, out, s.failure(c, err, "")
	}
	return upOutcome(out, reasonsOf(ctx, c))
}

// reasonsOf asks procs why each process is in its state.
func reasonsOf(ctx context.Context, c *control.Client) map[string]rules.Reason {
	reasons := map[string]rules.Reason{}
	list, err := c.List(ctx)
	if err != nil {
		return reasons
	}
	for _, st := range list {
		reasons[st.Name] = st.Reason
	}
	return reasons
}

// upOutcome reports up: a tool result with isError naming the processes
// that are not ready, with their reasons and last lines.
func upOutcome(out UpResult, reasons map[string]rules.Reason) (*sdk.CallToolResult, UpResult, error) {
	var failed []Result
	for _, res := range out.Processes {
		if !res.Success {
			failed = append(failed, res)
		}
	}
	if len(failed) == 0 {
		out.Message += "; every process is ready"
		return nil, out, nil
	}
	texts := make([]string, len(failed))
	names := make([]string, len(failed))
	for i, res := range failed {
		texts[i] = failedResult(res, reasons[res.Name]).Content[0].(*sdk.TextContent).Text
		names[i] = res.Name
	}
	out.Message += "; not ready: " + strings.Join(names, ", ")
	text := out.Message + "\n\n" + strings.Join(texts, "\n\n")
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}, out, nil
}

// waitAll waits for every process that procs runs or will run to be ready
// (or completed, for a task), and returns the results in start order.
// Stopped processes (disabled, or not asked for) are left out.
func waitAll(ctx context.Context, c *control.Client, timeout time.Duration) ([]Result, error) {
	type placed struct {
		place int
		res   Result
	}
	var got []placed
	err := c.WaitAll(ctx, timeout, func(place int, res rules.Result) bool {
		got = append(got, placed{place, resultOf(res)})
		return true
	})
	slices.SortFunc(got, func(a, b placed) int { return a.place - b.place })
	results := make([]Result, len(got))
	for i, p := range got {
		results[i] = p.res
	}
	return results, err
}

func (s *Server) down(ctx context.Context, _ *sdk.CallToolRequest, in downInput) (*sdk.CallToolResult, DownResult, error) {
	var out DownResult
	timeout, err := parseTimeout("timeout", in.Timeout, defaultDownTimeout)
	if err != nil {
		return nil, out, err
	}
	c, err := s.dial()
	if errors.Is(err, control.ErrNotRunning) {
		out.Stopped = true
		out.Message = fmt.Sprintf("no procs was running in %s; nothing to stop", s.opts.Dir)
		return nil, out, nil
	}
	if err != nil {
		return nil, out, s.failure(nil, err, "")
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := c.DownAndWait(ctx); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, out, failf("call list_processes to see which process is still stopping, or call down again.",
				"procs in %s is still stopping after %s.", s.opts.Dir, timeout)
		}
		return nil, out, s.failure(c, err, "")
	}
	out.Stopped = true
	out.Message = fmt.Sprintf("procs in %s and every process it ran have stopped", s.opts.Dir)
	return nil, out, nil
}
