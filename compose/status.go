package compose

import (
	"slices"
	"time"

	"github.com/procsdev/procs/rules"
)

// Status returns a snapshot of every process, in start order.
func (e *Engine) Status() ([]ProcStatus, error) {
	var out []ProcStatus
	err := e.do(func() {
		for _, name := range e.order {
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
	st := ProcStatus{
		Name: ps.cfg.Name, State: ps.state, Kind: ps.cfg.Kind, Run: ps.run, PID: ps.pid,
		Ports: slices.Clone(ps.ports), Port: ps.cfg.Port, Since: ps.since,
		Restarts: ps.totalRestarts, Reason: ps.reason, Message: ps.message, Line: ps.line,
		ExitCode: ps.exitCode, Preset: ps.preset, Command: ps.cfg.Command.String(),
	}
	if st.Ports == nil {
		st.Ports = []int{}
	}
	st.Recoverable = ps.state == rules.StateFailed && ps.recoverable
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
	if !ps.startedAt.IsZero() {
		started := ps.startedAt
		st.StartedAt = &started
		if ps.running() {
			st.UptimeMs = time.Since(started).Milliseconds()
		}
	}
	if !ps.readyAt.IsZero() && ps.readyAt.After(ps.startedAt) {
		ready := ps.readyAt
		st.ReadyAt = &ready
	}
	return st
}
