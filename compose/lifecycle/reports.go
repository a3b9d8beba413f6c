package lifecycle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// StableResetAfter is how long a run must stay ready for the restart
// policy to forget earlier crashes and start its backoff from the minimum
// again.
const StableResetAfter = 10 * time.Second

// current returns the process a report of run is about, or nil when the
// run has been replaced (its process restarted, removed, re-added).
func (m *Machine) current(name string, run int) *Proc {
	ps := m.procs[name]
	if ps == nil || ps.Run != run || !ps.running {
		return nil
	}
	return ps
}

// Started records the pid of a run whose process is running.
func (m *Machine) Started(name string, run, pid int) {
	if ps := m.current(name, run); ps != nil {
		ps.PID = pid
	}
}

// PortsChanged records the ports a run's process tree listens on.
func (m *Machine) PortsChanged(name string, run int, ports []int) {
	if ps := m.current(name, run); ps != nil {
		ps.Ports = ports
	}
}

// Verdict moves a running process to the state detection found.
func (m *Machine) Verdict(name string, run int, v rules.Verdict) {
	defer m.settle()
	ps := m.current(name, run)
	if ps == nil || ps.State == stopping {
		return // output while stopping says nothing about readiness
	}
	if !slices.Contains(alive, v.State) {
		return // a run's end comes with Exited, never as a verdict
	}
	ps.Line = v.Line
	if ps.Interactive && v.Agent == nil && v.State == ps.State && v.Reason == ps.Reason {
		// The prompt being typed into is not news: no event per keystroke.
		// An agent session's verdict is: its detector reports one only
		// when it says something new (the session an init event names).
		ps.Message = v.Message
		return
	}
	switch v.State {
	case ready:
		m.setState(ps, ready, v.Reason, v.Message)
		m.afterReady(ps)
	case failed:
		ps.Recoverable = v.Recoverable
		m.setState(ps, failed, v.Reason, v.Message)
		// An error on an agent's screen leaves it running and usable; only
		// its exit is for the restart policy.
		if !ps.Interactive && (m.policyRestarts(ps, v) || stopsWhenFailed(v)) {
			m.stopFailedRun(ps)
		}
	case starting:
		if ps.State != starting {
			m.setState(ps, starting, v.Reason, v.Message)
			break
		}
		// What a run still starting waits for (a prompt, the port its
		// ready line stands for) is news for status and for a wait that
		// gives up, not a transition; plain starting again, its command.
		ps.Message = v.Message
		if v.Reason == rules.ReasonStarting {
			ps.Message = startingMessage(ps)
		}
	default:
		m.setState(ps, v.State, v.Reason, v.Message)
	}
}

// failuresThatStop are the reasons of a failed verdict that stop a run
// still going even when no restart policy brings it back, each with why.
// The run is stopped gracefully (its shutdown signal, then its timeout)
// and its failure stands, saying procs stopped it. A readiness timeout is
// not one (design: "keeps the process running unless configured to kill
// it", that is a restart policy): the run may still come up, and its late
// ready line makes it ready and lets its dependents start.
var failuresThatStop = map[rules.Reason]string{
	rules.ReasonError: "an error line: an autoreloader waiting for a fix holds its port and memory",
}

// stopsWhenFailed says whether a run failed with v is stopped even when no
// restart policy brings it back: its reason is one of failuresThatStop,
// and it is not a failure the program recovers from by itself.
func stopsWhenFailed(v rules.Verdict) bool {
	_, stops := failuresThatStop[v.Reason]
	return stops && !v.Recoverable
}

// afterReady restarts the dependents that asked to follow this process's
// restarts.
func (m *Machine) afterReady(ps *Proc) {
	if !m.takeRestartDependents(ps) {
		return
	}
	for _, name := range m.dependents[ps.Cfg.Name] {
		d := m.procs[name]
		for _, dep := range d.Cfg.DependsOn {
			if dep.Name == ps.Cfg.Name && dep.Restart && (d.running || d.State == blocked) {
				m.info(d, rules.ReasonRestart, fmt.Sprintf("restarting because %s restarted", ps.Cfg.Name))
				m.requestRestart(d)
			}
		}
	}
}

// CannotStart ends a run the engine could not start.
func (m *Machine) CannotStart(name string, run int, err error) {
	m.Exited(name, run, rules.Verdict{State: failed, Reason: rules.ReasonStart, Message: err.Error(), ExitCode: -1})
}

// Exited records the end of a run and decides what comes next: a
// requested restart, a policy restart after backoff, or a final state.
func (m *Machine) Exited(name string, run int, v rules.Verdict) {
	defer m.settle()
	ps := m.current(name, run)
	if ps == nil {
		return
	}
	// A run that never started a process (port in use, command not found,
	// stopped while waiting for its port) has no exit code.
	ps.ExitCode = nil
	if ps.PID != 0 {
		code := v.ExitCode
		ps.ExitCode = &code
	}
	// Its ports went with it: a process that is not running listens on none.
	ps.running, ps.PID, ps.Ports = false, 0, nil
	ps.Line = v.Line
	// on-failure counts failures in a row: a run ready for long enough, or
	// one that completed, ends the row. always restarts completed runs
	// too, and its maxRestarts bounds those as well.
	completedRow := v.State == completed && ps.Cfg.Restart.Policy != config.RestartAlways
	endsRow := ps.ReadyThisRun() && m.now().Sub(ps.ReadyAt) >= StableResetAfter || completedRow
	switch {
	case m.runEnded(ps, endsRow):
		if ps.State != stopping && (ps.State != failed || v.State == failed) {
			// Ended by itself while its restart waited for dependencies:
			// its exit says how, then the restart goes on.
			m.setState(ps, v.State, v.Reason, v.Message)
		}
		m.setState(ps, pending, rules.ReasonRestart, "restarting")
	case !ps.intent.wanted || m.shuttingDown:
		m.setState(ps, stopped, rules.ReasonStopped, stoppedMessage(v))
	case ps.State == failed && v.State != failed:
		// Failed while running (error line, timeout) and then ended: keep
		// the failure that explains it, unless the policy brings it back.
		if ps.intent.failedStop {
			how := strings.TrimSuffix(strings.TrimPrefix(v.Message, "stopped on request ("), ")")
			m.setState(ps, failed, ps.Reason, ps.Message+"; procs stopped it ("+how+")")
		}
		m.maybeRestart(ps, v)
	default:
		m.setState(ps, v.State, v.Reason, v.Message)
		m.maybeRestart(ps, v)
	}
	if ps.intent.removed {
		m.forget(ps)
	}
}

func stoppedMessage(v rules.Verdict) string {
	if v.State == stopped {
		return v.Message // already says "stopped on request (...)"
	}
	if v.Message != "" {
		return "stopped (" + v.Message + ")"
	}
	return "stopped"
}

// maybeRestart applies the restart policy after a run ended by itself.
func (m *Machine) maybeRestart(ps *Proc, v rules.Verdict) {
	if !m.policyRestarts(ps, v) {
		ranOut := v.State == failed || ps.State == failed // a completed run gave nothing up
		if r := ps.Cfg.Restart; ranOut && r.MaxRestarts > 0 && ps.intent.restarts >= r.MaxRestarts && r.Policy != config.RestartNo {
			restarts := "restarts"
			if ps.intent.restarts == 1 {
				restarts = "restart"
			}
			gaveUp := fmt.Sprintf("not restarting: %d %s reached maxRestarts", ps.intent.restarts, restarts)
			// The process's own message says it too: status and a wait's
			// result show that message, not the event log.
			ps.Message += "; " + gaveUp
			m.info(ps, rules.ReasonGaveUp, gaveUp)
		}
		return
	}
	delay := m.policyRestart(ps)
	m.setState(ps, backoff, rules.ReasonBackoff, fmt.Sprintf("restart %d in %s (%s)", ps.intent.restarts, delay, v.Message))
	m.armBackoff(ps, delay)
}

// BackoffFired ends backoff gen of a process. A timer whose callback was
// already queued when a restart request stopped it carries an older gen:
// it must neither clear a newer timer nor start the next run early.
func (m *Machine) BackoffFired(name string, gen int) {
	defer m.settle()
	ps := m.procs[name]
	if ps == nil || !ps.intent.backoff || gen != ps.intent.backoffGen {
		return
	}
	ps.intent.backoff = false
	if ps.intent.wanted && !m.shuttingDown && ps.State == backoff {
		m.setState(ps, pending, rules.ReasonRestart, "restarting after backoff")
	}
}
