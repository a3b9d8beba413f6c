package compose

import (
	"slices"
	"time"

	"github.com/procsdev/procs/rules"
)

// Status returns a snapshot of every process, in start order, then the
// processes removed from the config whose last run is still stopping.
func (e *Engine) Status() ([]ProcStatus, error) {
	var out []ProcStatus
	err := e.do(func() {
		for _, name := range e.life.Names() {
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
		ReplicaOf: ps.cfg.Replica.Of, Replica: ps.cfg.Replica.Index,
	}
	if st.Ports == nil {
		st.Ports = []int{}
	}
	if note := e.throttleNote(ps); note != "" {
		st.Message += "; " + note
	}
	st.Recoverable = lp.State == rules.StateFailed && lp.Recoverable
	st.Removed = lp.Removed()
	st.Interactive, st.PTY = ps.interactive(), ps.pty
	st.Agent = ps.agentStatus()
	if ps.idle != nil {
		st.Idle = ps.idle.status()
	}
	st.Schedule = e.scheduleStatus(ps)
	if h := ps.logs.health(); h != (LogHealth{}) {
		st.Log = &h
	}
	for _, d := range ps.cfg.DependsOn {
		st.DependsOn = append(st.DependsOn, d.Name)
	}
	st.WaitedFor = lp.WaitedFor
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
