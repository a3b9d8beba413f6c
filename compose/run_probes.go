package compose

import (
	"context"
	"net"
	"strconv"
	"time"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// A preset's probe (redis PING, memcached version, pg_isready, RabbitMQ's
// AMQP greeting) tells that a server answers, not only that its port is
// open. The engine runs it while a run starts, from when the run's tree
// listens on its port until the run is ready; the detector is ready only
// once it passes (rules.Spec.ReadyProbe). It is not kept as a healthcheck
// once ready: some servers log every probe (RabbitMQ warns of each
// connection closed after its greeting); a healthcheck in procs.yaml does
// that, and replaces the preset's probe.

// presetProbeTimeout bounds one probe of a preset.
const presetProbeTimeout = 2 * time.Second

// presetProbeInterval is the longest wait between two probes of a preset
// while the run starts (they start 50 ms apart and double).
const presetProbeInterval = time.Second

// readyProbeOf builds the ready probe a process gets from its preset, and
// the port it asks: none for a process with a healthcheck of its own, a
// task, an interactive program, a preset without a probe, a port that is
// not known, or an exec probe whose program is not in the process's PATH
// (pathEnv, with globalEnv the config's env:).
func readyProbeOf(p *config.Proc, preset *frameworks.Preset, globalEnv map[string]string) (*rules.ProbeSpec, int) {
	if preset == nil || preset.Probe == nil || p.Healthcheck != nil || p.IsTask() || preset.Interactive {
		return nil, 0
	}
	port := p.Port
	if port == 0 {
		port, _ = preset.PortOf(p.Command.String(), p.Env)
	}
	if port == 0 {
		return nil, 0
	}
	// localhost: the server may listen on 127.0.0.1, ::1 or both, and a
	// dial of localhost tries each.
	addr := net.JoinHostPort("localhost", strconv.Itoa(port))
	probe := preset.Probe
	spec := &rules.ProbeSpec{Timeout: presetProbeTimeout, Dir: p.Cwd}
	switch {
	case probe.TCP != nil:
		spec.Kind, spec.Addr, spec.Send = rules.ProbeTCP, addr, probe.TCP.Send
		if probe.TCP.Expect != "" {
			// Checked when the preset was loaded.
			patterns, err := rules.CompilePatterns([]string{probe.TCP.Expect})
			if err != nil {
				return nil, 0
			}
			spec.Expect = &patterns[0]
		}
	case probe.HTTP != "":
		spec.Kind, spec.URL = rules.ProbeHTTP, "http://"+addr+probe.HTTP
	default:
		spec.Kind, spec.Argv = rules.ProbeExec, probe.Fill(port)
		if _, err := osproc.LookPath(spec.Argv[0], pathEnv(p, globalEnv), p.Cwd); err != nil {
			return nil, 0
		}
	}
	return spec, port
}

// pathEnv is what decides where a process's programs are found before it
// runs: the PATH of its env:, else that of the global env: (globalEnv),
// else (nil) procs' own, which the process inherits. An env file's PATH
// is not one: the environment procs runs in, which has a PATH, comes
// after the env files (processEnv).
func pathEnv(p *config.Proc, globalEnv map[string]string) []string {
	if path, ok := p.Env["PATH"]; ok {
		return []string{"PATH=" + path}
	}
	if path, ok := globalEnv["PATH"]; ok {
		return []string{"PATH=" + path}
	}
	return nil
}

// startProbes starts the healthcheck of procs.yaml at once; the preset's
// ready probe waits for its port (probeWhenListening). While the run
// starts, the healthcheck decides when it is ready: it is asked as often
// as a preset's probe (50 ms apart, doubling to a second), not once per
// interval, so the run is ready as soon as it answers (healthAfterReady).
func (l *runLoop) startProbes(ctx context.Context) {
	l.probeCtx = ctx
	if h := l.s.spec.health; h != nil {
		startCtx, stop := context.WithCancel(ctx)
		l.stopStartingHealth = stop
		l.runProbe(startCtx, *h, min(l.s.spec.interval, presetProbeInterval))
	}
}

// healthAfterReady moves the healthcheck to its own interval once the run
// is ready, its first probe one interval later: the run was just found
// healthy, and a probe at once would only wake procs for nothing.
func (l *runLoop) healthAfterReady() {
	if l.stopStartingHealth == nil {
		return
	}
	l.stopStartingHealth()
	l.stopStartingHealth = nil
	go rules.RunProbeEvery(l.probeCtx, l.probeOf(*l.s.spec.health), l.s.spec.interval, l.toLoop(l.probeCtx))
}

// probeWhenListening starts the preset's ready probe once the run's tree
// listens on its port, until the run is ready.
func (l *runLoop) probeWhenListening(ports []int) {
	spec := l.s.spec.detect
	if l.ready || l.stopReadyProbe != nil || spec == nil || !spec.ProbeGate(ports) {
		return
	}
	ctx, stop := context.WithCancel(l.probeCtx)
	l.stopReadyProbe = stop
	l.runProbe(ctx, *spec.ReadyProbe, presetProbeInterval)
}

// readyProbeDone stops the preset's ready probe, if it runs.
func (l *runLoop) readyProbeDone() {
	if l.stopReadyProbe != nil {
		l.stopReadyProbe()
	}
}

// runProbe probes until ctx ends, sending each result to the loop.
func (l *runLoop) runProbe(ctx context.Context, p rules.ProbeSpec, interval time.Duration) {
	go rules.RunProbe(ctx, l.probeOf(p), interval, l.toLoop(ctx))
}

// probeOf is p as the run's probe: an exec probe runs in the run's own
// environment (its env:, PORT, env files), as docker compose runs a
// healthcheck in its container's.
func (l *runLoop) probeOf(p rules.ProbeSpec) rules.ProbeSpec {
	if p.Kind == rules.ProbeExec {
		p.Env = l.env
	}
	return p
}

// toLoop passes a probe's result to the loop, until ctx ends.
func (l *runLoop) toLoop(ctx context.Context) func(rules.ProbeResult) {
	return func(r rules.ProbeResult) {
		select {
		case l.probeCh <- r:
		case <-ctx.Done():
		}
	}
}
