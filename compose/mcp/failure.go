package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// toolError is an ordinary failure: the SDK reports it to the model as a
// tool result with isError (never as a protocol error), and its text says
// what happened and what to do next.
type toolError struct{ text string }

// Error returns the text the model reads.
func (e *toolError) Error() string { return e.text }

// failf builds a toolError; next says what the model should do about it.
func failf(next, format string, args ...any) error {
	return &toolError{text: fmt.Sprintf(format, args...) + "\nNext: " + next}
}

// failure turns an error of the control client into a toolError. name is
// the process the call was about ("" for none); c, when not nil, lists the
// known names for an unknown one.
func (s *Server) failure(c *control.Client, err error, name string) error {
	var already *toolError
	var apiErr *control.APIError
	var perm *control.PermissionError
	switch {
	case errors.As(err, &already):
		return err
	case errors.As(err, &perm) && perm.Unreadable:
		return failf(fmt.Sprintf("ask the user to fix the permissions of %s, or to run this MCP server as its owner.", perm.Path), "%v.", err)
	case errors.Is(err, control.ErrNotAnswering):
		return failf("ask the user to resume procs (it may have been suspended with Ctrl-Z: `fg` in its terminal, or `kill -CONT PID`), then call this tool again.",
			"%v.", err)
	case errors.Is(err, control.ErrPermission):
		return failf("run this MCP server as the user who runs procs in that folder.", "%v.", err)
	case errors.Is(err, control.ErrNotRunning):
		return failf("call the up tool to start the project in the background (or run `procs up -d` in that folder), then call this tool again.",
			"No procs is running in %s.", s.opts.Dir)
	case errors.Is(err, wire.ErrUnknownProcess):
		return s.unknownProcess(c, name, err)
	case errors.Is(err, wire.ErrShuttingDown):
		return failf("wait for it to stop (or call down), then call up to start it again.",
			"procs in %s is shutting down.", s.opts.Dir)
	case errors.Is(err, context.DeadlineExceeded):
		return failf("call list_processes to see where things stand.",
			"procs did not answer in time.")
	case errors.As(err, &apiErr):
		return failf("call get_process to see its state, then adjust the call.", "%s", apiErr.Message)
	}
	return failf("call list_processes to check that procs still runs.", "talk to procs in %s: %v", s.opts.Dir, err)
}

// unknownProcess says which names exist, so the model can correct itself.
func (s *Server) unknownProcess(c *control.Client, name string, err error) error {
	if c != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if list, listErr := c.List(ctx); listErr == nil {
			names := make([]string, len(list))
			for i, st := range list {
				names[i] = st.Name
			}
			return failf("call again with one of those names.",
				"There is no process named %q in %s; the processes are: %s.", name, s.opts.Dir, strings.Join(names, ", "))
		}
	}
	return failf("call list_processes for the names, then call again with one of them.", "%v", err)
}

// reasonProcsStopped stands for the reason of a result when procs itself
// has stopped, so there is no process state left to ask.
const reasonProcsStopped rules.Reason = "procs-stopped"

// reasonOf asks procs why name is in its state (error, timeout,
// port-in-use, crash, ...), for the advice of a failed result.
func reasonOf(ctx context.Context, c *control.Client, name string) rules.Reason {
	st, err := c.Get(ctx, name)
	if errors.Is(err, control.ErrNotRunning) || errors.Is(err, wire.ErrShuttingDown) {
		return reasonProcsStopped
	}
	return st.Reason
}

// failedResult reports a result that is not what was asked for: the tool
// result has isError, its text says what happened with the last lines of
// output and what to do next (by the reason procs gave), and the
// structured result goes along.
func failedResult(res Result, reason rules.Reason) *sdk.CallToolResult {
	var b strings.Builder
	fmt.Fprintf(&b, "%s is %s (run %d): %s\n", res.Name, res.State, res.Run, res.Message)
	if len(res.Logs) > 0 {
		fmt.Fprintf(&b, "Last lines of %s:\n", res.Name)
		for _, line := range res.Logs {
			fmt.Fprintf(&b, "  | %s\n", line)
		}
	}
	b.WriteString("Next: " + nextStep(res.State, reason))
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}
}

// nextStep says what a model should do about a process that is not where
// it was asked to be, by its state and the reason procs gave for it.
func nextStep(state rules.State, reason rules.Reason) string {
	if reason == reasonProcsStopped {
		return "procs itself has stopped (down, or Ctrl-C in its terminal): call up to start the project again."
	}
	switch state {
	case rules.StateFailed:
		return failedStep(reason)
	case rules.StateStarting, rules.StatePending, rules.StateBusy:
		return fmt.Sprintf("it is still %s: call wait_for_ready to keep waiting (with a longer timeout for a slow start), or get_logs to see what it is doing.", state)
	case rules.StateBlocked:
		return "a process it depends on is not ready: call list_processes to find which, and fix that one first."
	case rules.StateStopped:
		return "it is stopped: call start_process to start it."
	case rules.StateStopping:
		return "it is still stopping: a restart goes on once its old run has ended (call wait_for_ready for the new run); " +
			"a stop leaves it stopped (call get_process, then start_process)."
	case rules.StateBackoff:
		return "it ended and its restart policy will start it again: read the lines above, then call wait_for_ready, or fix the cause and call restart_process."
	case rules.StateCompleted:
		return "it has exited with status 0; call start_process to run it again, or get_logs to read its output."
	case rules.StateUnhealthy:
		return "it was ready but is now unhealthy (a failing healthcheck, or an error line such as a compile error after an edit): " +
			"read get_logs and fix the cause; a dev server that recompiles becomes ready again by itself (wait_for_ready), else call restart_process."
	case rules.StateAwaitingInput, rules.StateAwaitingPermission:
		return "it waits for an answer: read get_logs, then answer with send_input."
	}
	return "call get_process for details."
}

// failedStep is the advice for a failed process.
func failedStep(reason rules.Reason) string {
	switch reason {
	case rules.ReasonPortInUse:
		return "stop the program holding the port (or change the port in procs.yaml), then call restart_process."
	case rules.ReasonStart:
		return "its command could not be started: fix command or cwd in procs.yaml, then call down and up to load it."
	case rules.ReasonTimeout:
		return "it was not ready within its readyTimeout: read the lines above; if it is only slow, raise readyTimeout in procs.yaml, else fix the cause and call restart_process."
	}
	return "read the lines above, fix the cause (often in code just edited), then call restart_process."
}
