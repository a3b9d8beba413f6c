package mcp

import (
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// The tool outputs. Their jsonschema tags become the descriptions of the
// output schemas, so they are written for a model to read.

// Process is the state of one process, as list_processes and get_process
// return it.
type Process struct {
	Name        string       `json:"name" jsonschema:"the process name, as in procs.yaml"`
	State       rules.State  `json:"state" jsonschema:"pending, blocked, starting, ready, busy, awaiting-input, awaiting-permission, unhealthy, failed, completed, backoff, stopping or stopped"`
	Kind        config.Kind  `json:"kind" jsonschema:"service (runs until stopped) or task (one-shot, completed when it exits 0)"`
	Run         int          `json:"run" jsonschema:"how many times it has been started; each restart is a new run"`
	PID         int          `json:"pid,omitempty" jsonschema:"process id of the current run, while it runs"`
	Ports       []int        `json:"ports" jsonschema:"TCP ports its process tree listens on"`
	Port        int          `json:"port,omitempty" jsonschema:"the port configured in procs.yaml"`
	Restarts    int          `json:"restarts" jsonschema:"how many times it has been restarted"`
	Reason      rules.Reason `json:"reason,omitempty" jsonschema:"why it is in its state, e.g. error, timeout, crash, port-in-use"`
	Message     string       `json:"message,omitempty" jsonschema:"what happened last, e.g. the ready line that matched or the error"`
	UptimeMs    int64        `json:"uptimeMs,omitempty" jsonschema:"how long the current run has been running, in milliseconds"`
	ExitCode    *int         `json:"exitCode,omitempty" jsonschema:"exit code of the last run, once it has ended"`
	Command     string       `json:"command" jsonschema:"the command line"`
	DependsOn   []string     `json:"dependsOn,omitempty" jsonschema:"the processes it waits for"`
	Interactive bool         `json:"interactive,omitempty" jsonschema:"an agent CLI, shell or REPL, classified by its screen: it takes input (send_input) only when ready, awaiting-input or awaiting-permission"`
	ReplicaOf   string       `json:"replicaOf,omitempty" jsonschema:"the process of procs.yaml this is an instance of (replicas: N runs NAME-1 to NAME-N)"`
	Replica     int          `json:"replica,omitempty" jsonschema:"this instance's number, from 1"`
	Schedule    *Schedule    `json:"schedule,omitempty" jsonschema:"for a task with schedule: in procs.yaml: when it runs next and how its last run ended"`
	// What its process tree uses, while it runs (absent when unknown).
	CPUPercent      *float64 `json:"cpuPercent,omitempty" jsonschema:"CPU of its whole process tree over the last seconds, in percent of one core (200 = two busy cores); absent when it does not run"`
	MemoryBytes     uint64   `json:"memoryBytes,omitempty" jsonschema:"memory of its whole process tree now, in bytes; absent when it does not run"`
	MemoryPeakBytes uint64   `json:"memoryPeakBytes,omitempty" jsonschema:"the highest memory of its current run, in bytes"`
}

// processOf converts the control API's status.
func processOf(st wire.ProcStatus) Process {
	ports := st.Ports
	if ports == nil {
		ports = []int{}
	}
	return Process{
		Name: st.Name, State: st.State, Kind: st.Kind, Run: st.Run, PID: st.PID,
		Ports: ports, Port: st.Port, Restarts: st.Restarts, Reason: st.Reason,
		Message: st.Message, UptimeMs: st.UptimeMs, ExitCode: st.ExitCode,
		Command: st.Command, DependsOn: st.DependsOn, Interactive: st.Interactive,
		ReplicaOf: st.ReplicaOf, Replica: st.Replica,
		Schedule:   scheduleOf(st.Schedule),
		CPUPercent: st.CPUPercent, MemoryBytes: st.MemoryBytes, MemoryPeakBytes: st.MemoryPeakBytes,
	}
}

// Result is the structured result of ARCHITECTURE.md §4: how a restart, start,
// stop or wait ended.
type Result struct {
	Name       string      `json:"name" jsonschema:"the process"`
	Success    bool        `json:"success" jsonschema:"true when the process got where it was asked to (ready, completed for a task, stopped for stop_process)"`
	State      rules.State `json:"state" jsonschema:"the state it is in now"`
	Run        int         `json:"run" jsonschema:"the run this result is about; a restart makes a new run"`
	DurationMs int64       `json:"durationMs" jsonschema:"how long it took, in milliseconds"`
	Message    string      `json:"message" jsonschema:"why it ended so: the ready line that matched and open ports, or the error line, the timeout, the exit code, the port holder"`
	Ports      []int       `json:"ports" jsonschema:"TCP ports its process tree listens on"`
	Logs       []string    `json:"logs" jsonschema:"the last lines of output of this run (up to 10)"`
}

// resultOf converts the control API's result.
func resultOf(res rules.Result) Result {
	out := Result(res)
	if out.Ports == nil {
		out.Ports = []int{}
	}
	if out.Logs == nil {
		out.Logs = []string{}
	}
	return out
}

// LogLine is one line of a process's output.
type LogLine struct {
	Name   string    `json:"name" jsonschema:"the process that printed it"`
	Run    int       `json:"run,omitempty" jsonschema:"the run that printed it"`
	Time   time.Time `json:"time" jsonschema:"when it was printed"`
	Stream string    `json:"stream" jsonschema:"stdout or stderr (pty for a terminal)"`
	Text   string    `json:"text" jsonschema:"the line, without colour codes"`
}
