package compose

import (
	"fmt"
	"syscall"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

// runSpec gathers what the supervisor of run needs. The environment is
// made by the supervisor as the run starts (environ), off the engine loop:
// env files are read from disk.
func (e *Engine) runSpec(ps *procState, run int) (runSpec, error) {
	p := ps.cfg
	sig, err := parseSignal(p.Shutdown.Signal)
	if err != nil {
		return runSpec{}, err
	}
	args, err := argsOf(ps, run)
	if err != nil {
		return runSpec{}, err
	}
	spec := runSpec{
		name: p.Name, run: run, proc: p, detect: ps.detect,
		argv: args.Command(p.Command).Args(), environ: environWithArgs(e.environOf(ps, run), args), dir: p.Cwd,
		signal: sig, timeout: p.Shutdown.Timeout.D(),
		owner: contain.Owner{Instance: e.instance, Name: p.Name, Run: run},
	}
	if spec.timeout <= 0 {
		spec.timeout = 10 * time.Second
	}
	spec.health, spec.interval, spec.failures = healthProbe(p)
	spec.window = windowOf(ps)
	spec.limits = containLimits(e.cfg.ResourcesOf(p))
	// An agent CLI in a one-shot JSON mode reads its stdin to the end
	// before it starts: a pipe nobody closes would hold it for ever.
	if d := ps.detect; d != nil && d.AgentProtocol != "" && !d.AgentInput && spec.window == nil {
		spec.noInput = true
	}
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
