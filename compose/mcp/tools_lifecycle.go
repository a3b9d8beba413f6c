package mcp

import (
	"context"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// defaultReadyTimeout bounds a wait for readiness when the call gives none.
const defaultReadyTimeout = 60 * time.Second

// requestSlack is how much longer than the wait itself a request may take.
const requestSlack = 10 * time.Second

// actionInput is the input of restart_process and start_process.
type actionInput struct {
	Name         string `json:"name" jsonschema:"the process name, as list_processes shows it"`
	WaitForReady bool   `json:"wait_for_ready,omitempty" jsonschema:"wait until the new run is ready (or completed, for a task) or has failed, and say which; false returns as soon as the request is accepted"`
	ReadyTimeout string `json:"ready_timeout,omitempty" jsonschema:"how long to wait for readiness, as a duration such as 30s or 2m"`
}

// stopInput is the input of stop_process.
type stopInput struct {
	Name    string `json:"name" jsonschema:"the process name, as list_processes shows it"`
	Wait    bool   `json:"wait,omitempty" jsonschema:"wait until the process has stopped"`
	Timeout string `json:"timeout,omitempty" jsonschema:"how long to wait, as a duration such as 30s"`
}

// waitInput is the input of wait_for_ready.
type waitInput struct {
	Name    string   `json:"name" jsonschema:"the process name, as list_processes shows it"`
	Timeout string   `json:"timeout,omitempty" jsonschema:"how long to wait, as a duration such as 30s or 2m"`
	For     []string `json:"for,omitempty" jsonschema:"the states to wait for (ready, busy, awaiting-input, awaiting-permission, completed, stopped...); by default ready (completed for a task), or a question or permission dialog of an interactive process, which returns at once"`
}

// actionFunc sends one lifecycle request.
type actionFunc func(c *control.Client, ctx context.Context, name string, opts control.ActionOptions) (rules.Result, error)

func (s *Server) addLifecycleTools() {
	actionDefaults := map[string]any{"wait_for_ready": true, "ready_timeout": defaultReadyTimeout.String()}
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "restart_process",
		Title: "Restart a process and wait until it is ready",
		Description: "Restart a process (stop its whole process group, start it again) and, by default, wait until the NEW run is " +
			"ready: its ready log line matched, its port is open, its probes pass. Call this after editing code a dev server runs. " +
			"Success means it came back; otherwise the result has isError, the state (failed, starting after a timeout, ...), " +
			"the reason (the error line, the timeout, the crash exit code, or the pid and command holding its port) and the last " +
			"10 log lines. Processes that depend on it with restart: true are restarted too.",
		InputSchema: inputSchema[actionInput](actionDefaults),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(false), IdempotentHint: false},
	}, s.actionTool((*control.Client).Restart))
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "start_process",
		Title: "Start a stopped process",
		Description: "Start a process that is stopped, failed or completed (or was disabled) and, by default, wait until it is " +
			"ready, with the same result as restart_process. A process that already runs is left as it is.",
		InputSchema: inputSchema[actionInput](actionDefaults),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(false), IdempotentHint: true},
	}, s.actionTool((*control.Client).Start))
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "stop_process",
		Title: "Stop a process",
		Description: "Stop one process: its shutdown signal goes to its whole process group, then SIGKILL after its shutdown " +
			"timeout. By default waits until it has stopped. Other processes keep running; use down to stop everything.",
		InputSchema: inputSchema[stopInput](map[string]any{"wait": true, "timeout": defaultReadyTimeout.String()}),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: new(true), IdempotentHint: true},
	}, s.stopProcess)
	sdk.AddTool(s.sdk, &sdk.Tool{
		Name:  "wait_for_ready",
		Title: "Wait until a process is ready",
		Description: "Wait until a process is ready (a task: completed), or has failed, or the timeout passes, and return the " +
			"same structured result as restart_process. Use it after start_process or restart_process with wait_for_ready=false, " +
			"or when a result said the process is still starting. An interactive process at a question or permission " +
			"dialog returns at once with state awaiting-input or awaiting-permission: read it with get_screen, answer " +
			"with send_input. for waits for other states (e.g. busy).",
		InputSchema: inputSchema[waitInput](map[string]any{"timeout": defaultReadyTimeout.String()}),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, s.waitForReady)
}

// actionTool builds the handler of restart_process or start_process.
func (s *Server) actionTool(do actionFunc) sdk.ToolHandlerFor[actionInput, Result] {
	return func(ctx context.Context, _ *sdk.CallToolRequest, in actionInput) (*sdk.CallToolResult, Result, error) {
		timeout, err := parseTimeout("ready_timeout", in.ReadyTimeout, defaultReadyTimeout)
		if err != nil {
			return nil, Result{}, err
		}
		return s.act(ctx, in.Name, control.ActionOptions{NoWait: !in.WaitForReady, Timeout: timeout}, do)
	}
}

func (s *Server) stopProcess(ctx context.Context, _ *sdk.CallToolRequest, in stopInput) (*sdk.CallToolResult, Result, error) {
	timeout, err := parseTimeout("timeout", in.Timeout, defaultReadyTimeout)
	if err != nil {
		return nil, Result{}, err
	}
	return s.act(ctx, in.Name, control.ActionOptions{NoWait: !in.Wait, Timeout: timeout}, (*control.Client).Stop)
}

func (s *Server) waitForReady(ctx context.Context, _ *sdk.CallToolRequest, in waitInput) (*sdk.CallToolResult, Result, error) {
	timeout, err := parseTimeout("timeout", in.Timeout, defaultReadyTimeout)
	if err != nil {
		return nil, Result{}, err
	}
	return s.act(ctx, in.Name, control.ActionOptions{Timeout: timeout},
		func(c *control.Client, ctx context.Context, name string, opts control.ActionOptions) (rules.Result, error) {
			return c.Wait(ctx, name, control.WaitOptions{Timeout: opts.Timeout, For: waitTargets(in.For)})
		})
}

// waitTargets are the states wait_for_ready waits for: those asked, else
// ready or completed, or a dialog: an agent waiting for ready must hear at
// once that the process asks something, not at the end of its timeout.
func waitTargets(asked []string) []rules.State {
	if len(asked) == 0 {
		return []rules.State{rules.StateReady, rules.StateCompleted, rules.StateAwaitingInput, rules.StateAwaitingPermission}
	}
	out := make([]rules.State, len(asked))
	for i, st := range asked {
		out[i] = rules.State(st)
	}
	return out
}

// act sends one request and reports its structured result; a result that
// is not a success is a tool result with isError.
func (s *Server) act(ctx context.Context, name string, opts control.ActionOptions, do actionFunc) (*sdk.CallToolResult, Result, error) {
	c, err := s.connect()
	if err != nil {
		return nil, Result{}, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout+requestSlack)
	defer cancel()
	res, err := do(c, ctx, name, opts)
	if err != nil {
		return nil, Result{}, s.failure(c, err, name)
	}
	out := resultOf(res)
	if !out.Success {
		return failedResult(out, reasonOf(ctx, c, name)), out, nil
	}
	return nil, out, nil
}
