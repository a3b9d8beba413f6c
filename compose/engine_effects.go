package compose

import (
	"time"

	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/rules"
)

// handleReport hands a supervisor's report to the lifecycle machine,
// keeping what the engine shows of the run (its screen).
func (e *Engine) handleReport(r report) {
	ps := e.procs[r.name]
	if ps != nil && r.kind == reportExited {
		e.endAsks(ps, r.run)
	}
	if ps == nil || r.run != ps.life.Run {
		return // a report of a run that has been replaced
	}
	switch r.kind {
	case reportStarted:
		ps.runEnv = r.runEnv
		e.life.Started(r.name, r.run, r.pid)
	case reportPorts:
		e.life.PortsChanged(r.name, r.run, r.ports)
	case reportVerdict:
		ps.screen = r.screen
		e.noteAgent(ps, r.run, r.verdict)
		e.life.Verdict(r.name, r.run, r.verdict)
	case reportExited:
		ps.screen, ps.lastScreen = r.screen, r.lastScreen
		ps.sup = nil
		e.noteAgent(ps, r.run, r.verdict)
		e.life.Exited(r.name, r.run, r.verdict)
	}
}

// act carries out the effects the machine decided, and those that
// carrying them out makes it decide, until there are none.
func (e *Engine) act() {
	if e.life.ShuttingDown() && !e.toldClosing {
		// Before the shutdown's first stop is carried out (see
		// contain.Containment.Closing).
		e.toldClosing = true
		e.contain.Closing()
	}
	for effects := e.life.Effects(); len(effects) > 0; effects = e.life.Effects() {
		for _, effect := range effects {
			e.carryOut(effect)
		}
	}
}

func (e *Engine) carryOut(effect lifecycle.Effect) {
	switch ef := effect.(type) {
	case lifecycle.StartRun:
		e.startRun(e.procs[ef.Name], ef.Run)
	case lifecycle.StopRun:
		if ps := e.procs[ef.Name]; ps != nil && ps.sup != nil {
			ps.sup.stop(ef.Graceful)
		}
	case lifecycle.ArmBackoff:
		name, gen := ef.Name, ef.Gen
		e.backoffs[name] = time.AfterFunc(ef.Delay, func() {
			e.post(func() { e.life.BackoffFired(name, gen) })
		})
	case lifecycle.CancelBackoff:
		if t := e.backoffs[ef.Name]; t != nil {
			t.Stop()
			delete(e.backoffs, ef.Name)
		}
	case lifecycle.Transition:
		e.bus.Publish(Event{
			Type: EventState, Time: ef.Time, Proc: ef.Name, Run: ef.Run, From: ef.From, To: ef.To,
			Reason: ef.Reason, Message: ef.Message, DurationMs: ef.DurationMs, Recoverable: ef.Recoverable,
		})
		if ps := e.procs[ef.Name]; ps != nil {
			e.idleOnState(ps, ef.From)
			forgetArgs(ps, ef.To)
		}
		e.scheduleOnState(ef)
		e.depsChanged(ef.Name)
	case lifecycle.Info:
		e.publishInfo(ef.Name, ef.Run, ef.Reason, ef.Message)
	case lifecycle.Answer:
		e.answer(ef)
	case lifecycle.Forget:
		e.forget(ef.Name)
	}
}

// startRun starts run of ps under a new supervisor.
func (e *Engine) startRun(ps *procState, run int) {
	ps.screen = nil
	spec, err := e.runSpec(ps, run)
	if err != nil {
		e.life.CannotStart(ps.cfg.Name, run, err)
		return
	}
	ps.sup = newSupervisor(spec, ps.logs, ps.ring, e.bus, e.contain, e.reports)
	go ps.sup.run(e.runCtx)
	e.sendDeps(ps)
}

// depsChanged gives the new state of name to the runs that depend on it
// (sendDeps: those whose ready rule reads it).
func (e *Engine) depsChanged(name string) {
	for _, dependent := range e.life.Dependents(name) {
		if ps := e.procs[dependent]; ps != nil {
			e.sendDeps(ps)
		}
	}
}

// sendDeps gives the current run of ps the states of its dependencies, if
// its ready rule reads them.
func (e *Engine) sendDeps(ps *procState) {
	if !ps.readsDeps() || ps.sup == nil {
		return
	}
	states := make(map[string]rules.State, len(ps.cfg.DependsOn))
	for _, dep := range ps.cfg.DependsOn {
		if d := e.procs[dep.Name]; d != nil {
			states[dep.Name] = d.life.State
		}
	}
	ps.sup.sendDeps(states)
}

// forget drops what the engine holds of a process removed from the
// config, once its last run has ended.
func (e *Engine) forget(name string) {
	ps := e.procs[name]
	if ps == nil {
		return
	}
	if ps.idle != nil {
		ps.idle.disarm()
	}
	if ps.logs != nil {
		_ = ps.logs.Close()
	}
	delete(e.procs, name)
}

func (e *Engine) publishInfo(name string, run int, reason rules.Reason, message string) {
	e.bus.Publish(Event{Type: EventInfo, Time: time.Now(), Proc: name, Run: run, Reason: reason, Message: message})
}

// infoOf publishes news about ps that changes no state.
func (e *Engine) infoOf(ps *procState, reason rules.Reason, message string) {
	e.publishInfo(ps.cfg.Name, ps.life.Run, reason, message)
}
