package wire

import (
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// ProcStatus is a snapshot of one process, as status, the API and MCP show it.
type ProcStatus struct {
	Name      string       `json:"name"`
	State     rules.State  `json:"state"`
	Kind      config.Kind  `json:"kind"`
	Run       int          `json:"run"`
	PID       int          `json:"pid,omitempty"`
	Ports     []int        `json:"ports"`
	Port      int          `json:"port,omitempty"`
	StartedAt *time.Time   `json:"startedAt,omitempty"`
	ReadyAt   *time.Time   `json:"readyAt,omitempty"`
	Since     time.Time    `json:"since"`
	UptimeMs  int64        `json:"uptimeMs,omitempty"`
	Restarts  int          `json:"restarts"`
	Reason    rules.Reason `json:"reason,omitempty"`
	Message   string       `json:"message,omitempty"`
	Line      string       `json:"line,omitempty"`
	ExitCode  *int         `json:"exitCode,omitempty"`
	Preset    string       `json:"preset,omitempty"`
	Command   string       `json:"command"`
	DependsOn []string     `json:"dependsOn,omitempty"`
	// WaitedFor is the dependency the current run waited for before it
	// started (the last of them to be there); empty if it started at once.
	WaitedFor string `json:"waitedFor,omitempty"`
	// ReplicaOf is the replicated process this is an instance of, and
	// Replica its number (from 1); both empty for a process without replicas.
	ReplicaOf string `json:"replicaOf,omitempty"`
	Replica   int    `json:"replica,omitempty"`
	// Removed says the process is no longer in the config: its last run
	// is still stopping, and it leaves the list once it has stopped. It
	// takes no request; only the views list it (Client.List does not).
	Removed bool `json:"removed,omitempty"`
	// Recoverable marks a failed state the program retries by itself.
	Recoverable bool `json:"recoverable,omitempty"`
	// Interactive marks a process classified by its screen (agent, shell, REPL).
	Interactive bool `json:"interactive,omitempty"`
	// PTY marks a process running in a pseudo-terminal (procs attach works).
	PTY bool `json:"pty,omitempty"`
	// Idle is the state of its onIdle actions, if it has any.
	Idle *IdleStatus `json:"idle,omitempty"`
	// Log tells a failing log file (a full disk) and the bytes it lost.
	Log *LogHealth `json:"log,omitempty"`
	// Schedule is when a scheduled task runs next and how its last run
	// ended; nil for a process without schedule:.
	Schedule *ScheduleStatus `json:"schedule,omitempty"`
	// Agent is the session of an agent CLI in its JSON mode (agent:).
	Agent *AgentStatus `json:"agent,omitempty"`
	// Usage is the CPU and memory of its process tree (cpuPercent,
	// memoryBytes, memoryPeakBytes), while it runs; the list and the
	// status of one process have it, events do not.
	Usage
}

// IdleStatus is the onIdle state of a process, as status and the API show it.
type IdleStatus struct {
	Paused    bool `json:"paused"`
	Cycles    int  `json:"cycles"`
	MaxCycles int  `json:"maxCycles,omitempty"`
	// Step is the input of the cycle in progress that was sent last (1-based), 0 between cycles.
	Step int `json:"step,omitempty"`
	// Completed says an agent wrote its completeWhen marker: no more cycles.
	Completed bool `json:"completed,omitempty"`
}

// LogHealth is the state of a process log as status shows it.
type LogHealth struct {
	// Error is the write error in progress, "" while writes succeed.
	Error string `json:"error,omitempty"`
	// Lost counts the bytes that could not be written, over procs' life.
	Lost int64 `json:"lost,omitempty"`
}
