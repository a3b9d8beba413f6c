package compose

import (
	"fmt"
	"slices"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// Detection is how readiness and failure of one process are decided: its
// own settings merged over the preset it uses, if any. The engine runs it;
// `procs detect` explains it.
type Detection struct {
	// Spec is what the detector of each run is given.
	Spec *rules.Spec
	// Preset is the preset in use, nil when none.
	Preset *frameworks.Preset
	// Reason says why that preset: the command, file or package.json entry
	// that matched, or "framework: NAME".
	Reason string
	// Runtime names the runtime the program runs on when the preset is
	// that runtime's, not the program's own ("node" for hardhat), "" else
	// (frameworks.Detection.Runtime).
	Runtime string
}

// DetectionOf merges a process's settings with its preset. Patterns extend
// the preset's; readyTimeout and stabilityDelay, when set, replace the
// preset's. A process that says nothing of its readiness (no port, ready
// pattern or rule) takes the preset's ways to tell without a line: a
// listening port, or being assumed ready after a while. globalEnv is the
// config's env: for every process, where its programs may be found.
func DetectionOf(p *config.Proc, globalEnv map[string]string) (Detection, error) {
	d := Detection{}
	d.Preset, d.Reason, d.Runtime = presetFor(p)
	if p.AgentProtocol() != "" {
		// The JSON mode is read by its protocol: no screen, no patterns.
		d.Preset, d.Reason, d.Runtime = nil, "", ""
	}
	ready, errs, notReady := p.ReadyPatterns, p.ErrorPatterns, p.NotReadyPatterns
	spec := &rules.Spec{
		Port:           p.Port,
		ReadyTimeout:   p.ReadyTimeout.D(),
		StabilityDelay: p.StabilityDelay.D(),
		Task:           p.IsTask(),
	}
	spec.ExpectedPort = expectedPort(p, d.Preset)
	if preset := d.Preset; preset != nil {
		// A ready line that names a port waits for the tree to listen
		// there.
		spec.ReadyLinePort = preset.ListensOnItsLinePort()
		spec.ReadyLineListens = preset.ReadyLineBeforeListen
		ready = slices.Concat(preset.ReadyPatterns, ready)
		errs = slices.Concat(preset.ErrorPatterns, errs)
		notReady = slices.Concat(preset.NotReadyPatterns, notReady)
		saysHowReady := len(p.ReadyPatterns) > 0 || p.Ready != ""
		if !saysHowReady {
			// A server that prints nothing (a silent net/http or Python
			// server) is ready by listening, with port: set or without;
			// with port: set and no ready line to wait for, that port
			// decides alone.
			spec.ReadyOnListen = preset.ReadyWhenListening && (p.Port == 0 || len(preset.ReadyPatterns) > 0)
			if spec.ReadyTimeout == 0 && p.Port == 0 && !spec.Task {
				spec.AssumeReadyAfter = preset.AssumeReadyAfter
			}
		}
		// A task is done when it exits: a server preset's readyTimeout
		// (postgres's 60s) must not kill `psql -c "select pg_sleep(65)"`.
		if spec.ReadyTimeout == 0 && spec.AssumeReadyAfter == 0 && !spec.Task {
			spec.ReadyTimeout = preset.ReadyTimeout
		}
		// The recorded runs behind a preset's delay print their ready line
		// and then fail to bind: with a port configured, readiness waits
		// for the run's own tree to open it, which such a run never does.
		if spec.StabilityDelay == 0 && p.Port == 0 {
			spec.StabilityDelay = preset.StabilityDelay
		}
		if preset.MayDaemonize(p.Command.String()) {
			spec.StabilityDelay = max(spec.StabilityDelay, frameworks.DaemonGrace)
		}
		spec.ReadyProbe, spec.ProbePort = readyProbeOf(p, preset, globalEnv)
	}
	if err := interactiveSpec(p, d.Preset, spec); err != nil {
		return d, err
	}
	if !spec.Task && !spec.Interactive {
		// A healthcheck that does not pass is no ready process, and no
		// run is assumed ready past it.
		spec.Healthcheck, _, _ = healthProbe(p)
		if spec.Healthcheck != nil {
			spec.AssumeReadyAfter = 0
		}
	}
	var err error
	if spec.ReadyPatterns, err = rules.CompilePatterns(ready); err != nil {
		return d, fmt.Errorf("%s: readyPatterns: %w", p.Name, err)
	}
	if spec.ErrorPatterns, err = rules.CompilePatterns(errs); err != nil {
		return d, fmt.Errorf("%s: errorPatterns: %w", p.Name, err)
	}
	if spec.NotReadyPatterns, err = rules.CompilePatterns(notReady); err != nil {
		return d, fmt.Errorf("%s: notReadyPatterns: %w", p.Name, err)
	}
	if preset := d.Preset; preset != nil {
		if spec.ReloadPatterns, err = rules.CompilePatterns(preset.ReloadPatterns); err != nil {
			return d, fmt.Errorf("%s: the %s preset's reloadPatterns: %w", p.Name, preset.Name, err)
		}
		if spec.RecoveredPatterns, err = rules.CompilePatterns(preset.RecoveredPatterns); err != nil {
			return d, fmt.Errorf("%s: the %s preset's recoveredPatterns: %w", p.Name, preset.Name, err)
		}
	}
	if p.Ready != "" {
		if spec.Rule, err = rules.CompileRule(p.Ready); err != nil {
			return d, fmt.Errorf("%s: ready: %w", p.Name, err)
		}
	}
	spec.AgentProtocol = p.AgentProtocol()
	spec.AgentInput = spec.AgentProtocol.ReadsPrompts(p.Command.String())
	d.Spec = spec
	return d, nil
}

// presetName is the name of the preset in use, "" when none.
func (d Detection) presetName() string {
	if d.Preset == nil {
		return ""
	}
	return d.Preset.Name
}

// presetEnv is the environment the preset adds, nil when none.
func (d Detection) presetEnv() map[string]string {
	if d.Preset == nil {
		return nil
	}
	return d.Preset.Env
}

// presetFor picks the preset of a process: the named one, none, or the
// detected one (framework: auto, the default).
func presetFor(p *config.Proc) (preset *frameworks.Preset, reason, runtime string) {
	det, ok := frameworks.Resolve(p.Framework, p.Command.String(), p.Command.Args(), p.Cwd)
	if !ok {
		return nil, "", ""
	}
	return det.Preset, det.Reason, det.Runtime
}

// expectedPort is the port p is to listen on, when it is known: its
// port:, else the one its command gives its preset's program (--port
// 7000, PORT=7000), not the preset's default, which the program may not
// be using. 0 when unknown.
func expectedPort(p *config.Proc, preset *frameworks.Preset) int {
	if p.Port != 0 || preset == nil {
		return p.Port
	}
	if port, from := preset.PortOf(p.Command.String(), p.Env); from != "default" {
		return port
	}
	return 0
}
