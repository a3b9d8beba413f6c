package compose

import (
	"slices"
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
}

// Status returns a snapshot of every process, in start order.
func (e *Engine) Status() ([]ProcStatus, error) {
	var out []ProcStatus
	err := e.do(func() {
		for _, name := range e.life.Order() {
			out = append(out, e.status(e.procs[name]))
		}
	})
	return out, err
}

// StatusOf returns a snapshot of one process.
func (e *Engine) StatusOf(name string) (ProcStatus, error) {
	var out ProcStatus
	err := e.onProc(name, func(ps *procState) error {
		out = e.status(ps)
		return nil
	})
	return out, err
}

func (e *Engine) status(ps *procState) ProcStatus {
	lp := ps.life
	st := ProcStatus{
		Name: ps.cfg.Name, State: lp.State, Kind: ps.cfg.Kind, Run: lp.Run, PID: lp.PID,
		Ports: slices.Clone(lp.Ports), Port: ps.cfg.Port, Since: lp.Since,
		Restarts: lp.TotalRestarts, Reason: lp.Reason, Message: lp.Message, Line: lp.Line,
		ExitCode: lp.ExitCode, Preset: ps.preset, Command: ps.cfg.Command.String(),
	}
	if st.Ports == nil {
		st.Ports = []int{}
	}
	st.Recoverable = lp.State == rules.StateFailed && lp.Recoverable
	st.Interactive, st.PTY = ps.interactive(), ps.pty
	if ps.idle != nil {
		st.Idle = ps.idle.status()
	}
	if h := ps.logs.health(); h != (LogHealth{}) {
		st.Log = &h
	}
	for _, d := range ps.cfg.DependsOn {
		st.DependsOn = append(st.DependsOn, d.Name)
	}
	if !lp.StartedAt.IsZero() {
		started := lp.StartedAt
		st.StartedAt = &started
		if ps.running() {
			st.UptimeMs = time.Since(started).Milliseconds()
		}
	}
	if lp.ReadyThisRun() {
		ready := lp.ReadyAt
		st.ReadyAt = &ready
	}
	return st
}
