package compose

import (
	"fmt"
	"slices"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/rules"
)

// detection is how readiness and failure of one process are decided: its
// own settings merged over the preset it uses, if any.
type detection struct {
	spec   *rules.Spec
	preset string
	reason string
	env    map[string]string
}

// detectionFor merges a process's settings with its preset. Patterns extend
// the preset's; readyTimeout and stabilityDelay, when set, replace the
// preset's; the preset's env comes under the process's own.
func detectionFor(p *Proc) (detection, error) {
	var d detection
	preset, reason := presetFor(p)
	ready, errs, notReady := p.ReadyPatterns, p.ErrorPatterns, p.NotReadyPatterns
	spec := &rules.Spec{
		Port:           p.Port,
		ReadyTimeout:   p.ReadyTimeout.D(),
		StabilityDelay: p.StabilityDelay.D(),
		Task:           p.IsTask(),
	}
	if preset != nil {
		d.preset, d.reason, d.env = preset.Name, reason, preset.Env
		ready = slices.Concat(preset.ReadyPatterns, ready)
		errs = slices.Concat(preset.ErrorPatterns, errs)
		notReady = slices.Concat(preset.NotReadyPatterns, notReady)
		if spec.ReadyTimeout == 0 {
			spec.ReadyTimeout = preset.ReadyTimeout
		}
		if spec.StabilityDelay == 0 {
			spec.StabilityDelay = preset.StabilityDelay
		}
	}
	if err := interactiveSpec(p, preset, spec); err != nil {
		return d, err
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
	if p.Ready != "" {
		if spec.Rule, err = rules.CompileRule(p.Ready); err != nil {
			return d, fmt.Errorf("%s: ready: %w", p.Name, err)
		}
	} else if preset != nil && preset.ReadyWhenListening && p.Port == 0 && len(ready) == 0 {
		// A silent server (nginx, memcached) prints nothing when ready:
		// with no port to watch, its tree listening on one is the sign,
		// rather than merely running.
		if spec.Rule, err = rules.CompileRule(frameworks.ListeningRule); err != nil {
			return d, fmt.Errorf("%s: preset %s: %w", p.Name, preset.Name, err)
		}
	}
	d.spec = spec
	return d, nil
}

// presetFor picks the preset of a process: the named one, none, or the
// detected one (framework: auto, the default).
func presetFor(p *Proc) (*frameworks.Preset, string) {
	det, ok := frameworks.Resolve(p.Framework, p.Command.String(), p.Command.Args(), p.Cwd)
	if !ok {
		return nil, ""
	}
	return det.Preset, det.Reason
}
