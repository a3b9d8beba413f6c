package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// taskToolTimeout bounds how long a task tool waits for its run to end;
// the run goes on after it, and the result says so.
const taskToolTimeout = 10 * time.Minute

// taskToolPrefix names the tool of task NAME run_NAME.
const taskToolPrefix = "run_"

// TaskResult is how a run of a task ended, as its tool returns it.
type TaskResult struct {
	Name       string      `json:"name" jsonschema:"the task"`
	Success    bool        `json:"success" jsonschema:"true when the run completed: it exited 0"`
	ExitCode   *int        `json:"exitCode,omitempty" jsonschema:"the exit code of the run, once it has ended (absent while it still runs, or when it was never started)"`
	State      rules.State `json:"state" jsonschema:"completed (exit 0), failed (another exit code, or an error line), stopped, or starting when it still runs"`
	Run        int         `json:"run" jsonschema:"the run this result is about: each call starts a new one"`
	DurationMs int64       `json:"durationMs" jsonschema:"how long the call took, from the start request to the end of the run (its dependencies' start included), in milliseconds"`
	Message    string      `json:"message" jsonschema:"how it ended: the exit code and the last error line, or why it did not start"`
	Logs       []string    `json:"logs" jsonschema:"the last lines of output of this run (up to 10); get_logs reads more"`
}

// addTaskTools offers each task of the config as a tool that runs it with
// its arguments and waits for it to end.
func (s *Server) addTaskTools() {
	for _, task := range s.opts.Tasks {
		if !task.IsTask() {
			continue
		}
		sdk.AddTool(s.sdk, &sdk.Tool{
			Name:        taskToolPrefix + task.Name,
			Title:       "Run the task " + task.Name,
			Description: taskDescription(task),
			InputSchema: taskInputSchema(task),
			Annotations: &sdk.ToolAnnotations{IdempotentHint: false, OpenWorldHint: new(false)},
		}, s.runTaskTool(task))
	}
}

// taskDescription says what the tool of task runs, for a model.
func taskDescription(task *config.Proc) string {
	var b strings.Builder
	if task.Description != "" {
		b.WriteString(strings.TrimSuffix(task.Description, ".") + ". ")
	}
	fmt.Fprintf(&b, "Runs the task %s of procs.yaml (command: %s) on the running procs, its dependencies first, waits until it ends "+
		"(up to %s) and returns its exit code, state, duration and last lines of output; success means it exited 0. ",
		task.Name, task.Command.String(), taskToolTimeout)
	if task.HasArgs() {
		b.WriteString("Each argument reaches the command as an environment variable (its name upper-cased) and as one quoted word: " +
			"values are passed as text, never run as shell code. ")
	}
	b.WriteString("If the task is already running, the call is refused rather than joining that run.")
	return b.String()
}

// taskInputSchema is the input schema of the tool of task: one property
// per argument, with its type, description and default.
func taskInputSchema(task *config.Proc) *jsonschema.Schema {
	schema := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for _, arg := range task.Args {
		prop := &jsonschema.Schema{Type: string(arg.TypeOrString()), Description: arg.Description}
		if arg.Default != nil {
			data, err := json.Marshal(arg.Default)
			if err != nil {
				panic(fmt.Sprintf("encode default of %s: %v", arg.Name, err)) // a decoded scalar: a bug
			}
			prop.Default = data
		}
		schema.Properties[arg.Name] = prop
		schema.PropertyOrder = append(schema.PropertyOrder, arg.Name)
		if arg.Required {
			schema.Required = append(schema.Required, arg.Name)
		}
	}
	return schema
}

// runTaskTool builds the handler of the tool of task.
func (s *Server) runTaskTool(task *config.Proc) sdk.ToolHandlerFor[map[string]json.RawMessage, TaskResult] {
	name := task.Name
	return func(ctx context.Context, _ *sdk.CallToolRequest, in map[string]json.RawMessage) (*sdk.CallToolResult, TaskResult, error) {
		args, err := argValues(in)
		if err != nil {
			return nil, TaskResult{}, err
		}
		if args == nil && task.HasArgs() {
			args = map[string]string{} // a run of its own with the defaults, never a join
		}
		c, err := s.connect()
		if err != nil {
			return nil, TaskResult{}, err
		}
		defer c.Close()
		ctx, cancel := context.WithTimeout(ctx, taskToolTimeout+requestSlack)
		defer cancel()
		began := time.Now()
		started, err := c.Start(ctx, name, control.ActionOptions{NoWait: true, Args: args})
		if err != nil {
			return nil, TaskResult{}, s.taskFailure(c, err, name)
		}
		res, err := c.Wait(ctx, name, control.WaitOptions{For: []rules.State{rules.StateCompleted}, Run: started.Run, Timeout: taskToolTimeout})
		if err != nil {
			return nil, TaskResult{}, s.failure(c, err, name)
		}
		out := taskResultOf(res)
		// The wait's own duration starts when the run may be over already.
		out.DurationMs = time.Since(began).Milliseconds()
		if st, err := c.Get(ctx, name); err == nil && st.Run == res.Run && st.PID == 0 {
			out.ExitCode = st.ExitCode
		}
		return taskText(out, reasonOf(ctx, c, name)), out, nil
	}
}

// argValues turns the tool's JSON arguments into text, as procs run
// --arg gives them: a string as is, a number or boolean as written. The
// running procs checks them against the task's args.
func argValues(in map[string]json.RawMessage) (map[string]string, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(in))
	for name, raw := range in {
		var text string
		switch {
		case json.Unmarshal(raw, &text) == nil:
		case len(raw) > 0 && raw[0] != '{' && raw[0] != '[' && string(raw) != "null":
			text = string(raw)
		default:
			return nil, failf("call again with "+name+" as a string, number or boolean, as the input schema says.",
				"Argument %s is %s, not a string, number or boolean.", name, raw)
		}
		out[name] = text
	}
	return out, nil
}

// taskFailure words a refused start: arguments the task does not take,
// or a run going that a run with arguments does not join.
func (s *Server) taskFailure(c *control.Client, err error, name string) error {
	var apiErr *control.APIError
	switch {
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusBadRequest:
		return failf("call again with the arguments the tool's input schema describes.", "%s", apiErr.Message)
	case errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict:
		return failf("wait for that run to end (wait_for_ready with for: [completed, failed, stopped]) or stop it (stop_process), then call again.",
			"%s", apiErr.Message)
	}
	return s.failure(c, err, name)
}

// taskResultOf converts the control API's result.
func taskResultOf(res rules.Result) TaskResult {
	out := resultOf(res)
	return TaskResult{Name: out.Name, Success: out.Success, State: out.State, Run: out.Run,
		DurationMs: out.DurationMs, Message: out.Message, Logs: out.Logs}
}

// taskText is the text of a task's result, for a model that reads text:
// how it ended, its last lines and, when it failed, what to do next.
func taskText(res TaskResult, reason rules.Reason) *sdk.CallToolResult {
	var b strings.Builder
	exit := "still running"
	if res.ExitCode != nil {
		exit = fmt.Sprintf("exit code %d", *res.ExitCode)
	}
	fmt.Fprintf(&b, "%s %s (run %d, %s, %dms)", res.Name, res.State, res.Run, exit, res.DurationMs)
	if res.Message != exit {
		// A task that completed says only its exit code: said above.
		b.WriteString(": " + res.Message)
	}
	b.WriteString("\n")
	if len(res.Logs) > 0 {
		fmt.Fprintf(&b, "Last lines of %s:\n", res.Name)
		for _, line := range res.Logs {
			fmt.Fprintf(&b, "  | %s\n", line)
		}
	}
	if !res.Success {
		b.WriteString("Next: " + taskNextStep(res, reason))
	}
	return &sdk.CallToolResult{IsError: !res.Success, Content: []sdk.Content{&sdk.TextContent{Text: strings.TrimSuffix(b.String(), "\n")}}}
}

// taskNextStep says what a model should do about a run of a task that did
// not complete.
func taskNextStep(res TaskResult, reason rules.Reason) string {
	switch {
	case reason == reasonProcsStopped || reason == rules.ReasonStart || res.State == rules.StateBlocked:
		return nextStep(res.State, reason)
	case res.State == rules.StateFailed || res.State == rules.StateBackoff:
		return fmt.Sprintf("read the lines above (get_logs for more), fix the cause, then call %s%s again.", taskToolPrefix, res.Name)
	case res.State == rules.StateStopped || res.State == rules.StateStopping:
		return fmt.Sprintf("it was stopped before it ended; call %s%s again to run it.", taskToolPrefix, res.Name)
	}
	return "it still runs: call wait_for_ready with for: [completed, failed] to wait more, get_logs to read it, or stop_process to stop it."
}
