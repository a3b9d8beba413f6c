package compose

import (
	"fmt"
	"syscall"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// schedule starts every wanted process whose dependencies are satisfied and
// blocks those whose dependencies cannot be, in start order.
func (e *Engine) schedule() {
	if e.shuttingDown {
		e.advanceShutdown()
		return
	}
	for _, name := range e.order {
		ps := e.procs[name]
		if !ps.wanted || ps.running() || ps.backoff != nil {
			continue
		}
		if ps.state != rules.StatePending && ps.state != rules.StateBlocked {
			continue
		}
		ok, why := e.depsSatisfied(ps)
		switch {
		case ok:
			e.start(ps)
		case why != "":
			e.setState(ps, rules.StateBlocked, "dependency", why)
		case ps.state == rules.StateBlocked:
			// The blocking dependency is coming back: wait for it again.
			e.setState(ps, rules.StatePending, "waiting", "waiting for dependencies")
		}
	}
}

// depsSatisfied says whether ps may start; when it may not, why is set if a
// dependency has failed or stopped for good (so ps is blocked), and empty if
// ps should keep waiting.
func (e *Engine) depsSatisfied(ps *procState) (ok bool, why string) {
	ok = true
	for _, dep := range ps.cfg.DependsOn {
		d := e.procs[dep.Name]
		if conditionMet(d, dep.Condition) {
			continue
		}
		ok = false
		if reason := depBlocks(d, dep.Condition); reason != "" && why == "" {
			why = fmt.Sprintf("%s %s", dep.Name, reason)
		}
	}
	return ok, why
}

// conditionMet reports whether dependency d satisfies condition c.
func conditionMet(d *procState, c config.Condition) bool {
	switch c {
	case config.ConditionStarted:
		return d.running() && d.state != rules.StateStopping || d.state == rules.StateCompleted
	case config.ConditionCompleted:
		return d.state == rules.StateCompleted
	default:
		switch d.state {
		case rules.StateReady, rules.StateUnhealthy, rules.StateCompleted,
			rules.StateBusy, rules.StateAwaitingInput, rules.StateAwaitingPermission:
			return true
		}
		return false
	}
}

// depBlocks says why d can no longer satisfy its dependents ("" while it may).
func depBlocks(d *procState, c config.Condition) string {
	if d.backoff != nil || d.restartPending {
		return ""
	}
	switch d.state {
	case rules.StateFailed:
		if d.recoverable && d.running() {
			return "" // it retries by itself
		}
		if d.running() && c != config.ConditionCompleted {
			return "failed: " + d.message
		}
		return "failed: " + d.message
	case rules.StateStopped:
		if !d.wanted {
			return "is stopped"
		}
	case rules.StateBlocked:
		return "is blocked (" + d.message + ")"
	case rules.StateCompleted:
		if c == config.ConditionCompleted {
			return ""
		}
	}
	return ""
}

// start launches a new run of ps.
func (e *Engine) start(ps *procState) {
	ps.run++
	ps.pid, ps.ports, ps.exitCode, ps.screen = 0, nil, nil, nil
	ps.failedStop = false
	ps.startedAt = time.Now()
	spec, err := e.runSpec(ps)
	if err != nil {
		e.setState(ps, rules.StateFailed, "start", err.Error())
		return
	}
	ps.sup = newSupervisor(spec, ps.logs, ps.ring, e.bus, e.contain, e.reports)
	e.setState(ps, rules.StateStarting, "start", "starting: "+ps.cfg.Command.String())
	go ps.sup.run(e.runCtx)
}

// runSpec gathers what the supervisor of the next run needs.
func (e *Engine) runSpec(ps *procState) (runSpec, error) {
	p := ps.cfg
	env, err := e.processEnv(ps)
	if err != nil {
		return runSpec{}, err
	}
	sig, err := parseSignal(p.Shutdown.Signal)
	if err != nil {
		return runSpec{}, err
	}
	spec := runSpec{
		name: p.Name, run: ps.run, proc: p, detect: ps.detect,
		argv: p.Command.Args(), env: env, dir: p.Cwd,
		signal: sig, timeout: p.Shutdown.Timeout.D(),
		owner: contain.Owner{Instance: e.instance, Name: p.Name, Run: ps.run},
	}
	if spec.timeout <= 0 {
		spec.timeout = 10 * time.Second
	}
	spec.health, spec.interval, spec.failures = healthProbe(p)
	spec.window = windowOf(ps)
	return spec, nil
}

// parseSignal turns "SIGTERM", "TERM" or "15" into a signal.
func parseSignal(name string) (syscall.Signal, error) {
	if name == "" {
		return syscall.SIGTERM, nil
	}
	for _, known := range []map[string]syscall.Signal{signalsByName, unixSignalsByName} {
		if sig, ok := known[name]; ok {
			return sig, nil
		}
		if sig, ok := known["SIG"+name]; ok {
			return sig, nil
		}
	}
	return 0, fmt.Errorf("unknown shutdown signal %q", name)
}

var signalsByName = map[string]syscall.Signal{
	"SIGTERM": syscall.SIGTERM, "SIGINT": syscall.SIGINT, "SIGQUIT": syscall.SIGQUIT,
	"SIGHUP": syscall.SIGHUP, "SIGKILL": syscall.SIGKILL,
}

// healthProbe turns a healthcheck into a probe spec with its defaults.
func healthProbe(p *config.Proc) (*rules.ProbeSpec, time.Duration, int) {
	h := p.Healthcheck
	if h == nil {
		return nil, 0, 0
	}
	spec := &rules.ProbeSpec{Timeout: h.Timeout.D(), Dir: p.Cwd}
	switch {
	case h.HTTP != "":
		spec.Kind, spec.URL = rules.ProbeHTTP, h.HTTP
	case h.TCP != "":
		spec.Kind, spec.Addr = rules.ProbeTCP, h.TCP
	default:
		spec.Kind, spec.Argv = rules.ProbeExec, h.Exec.Args()
	}
	if spec.Timeout <= 0 {
		spec.Timeout = 2 * time.Second
	}
	interval, failures := h.Interval.D(), h.Failures
	if interval <= 0 {
		interval = 5 * time.Second
	}
	if failures <= 0 {
		failures = 3
	}
	return spec, interval, failures
}
