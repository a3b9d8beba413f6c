package config

import (
	"fmt"
	"slices"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
)

// onIdleTargets checks that each process with onIdle can be idle at a
// prompt: an interactive process in a terminal, or an agent CLI in its
// JSON mode that reads prompts. Any other is never idle (its state does
// not go back to ready after an input), so its onIdle would do nothing.
// The engine decides the same from the same settings (compose's
// checkIdleConfig); here it is said at load, with its place, so procs
// check says it too.
func (v *validator) onIdleTargets() {
	for _, name := range v.cfg.Names() {
		p := v.cfg.Procs[name]
		if p.OnIdle == nil {
			continue
		}
		if why := notIdleAtPrompt(p); why != "" {
			v.p.atKey([]string{"procs", name, "onIdle"}, "%s", why)
		}
	}
}

// notIdleAtPrompt says why p is never idle at a prompt and what to
// change, "" when it can be.
func notIdleAtPrompt(p *Proc) string {
	protocol := p.AgentProtocol()
	if protocol != "" && protocol.ReadsPrompts(p.Command.String()) {
		return ""
	}
	interactive, presetInteractive := interactiveOf(p)
	switch {
	case interactive && p.InTerminal(interactive):
		return ""
	case protocol != "" && protocol.TakesInput():
		return fmt.Sprintf("%s runs the one prompt of its command line (--output-format stream-json without --input-format stream-json) and reads no input: add --input-format stream-json to its command, or remove onIdle", p.Name)
	case protocol != "":
		return fmt.Sprintf("%s's agent CLI (%s) takes its one prompt on its command line and reads no input: remove onIdle, or run a session that reads prompts (claude -p --input-format stream-json --output-format stream-json)", p.Name, protocol)
	case !interactive && presetInteractive:
		return fmt.Sprintf("only an interactive process is idle at a prompt, and %s has interactive: false: remove it, or remove onIdle", p.Name)
	case !interactive:
		return fmt.Sprintf("only an interactive process is idle at a prompt, and %s is not one: add interactive: true to %s, or use an agent, shell or REPL preset (framework:, see procs frameworks)", p.Name, p.Name)
	}
	return fmt.Sprintf("only a process in a terminal shows a prompt to be idle at, and %s has pty: false: remove it, or remove onIdle", p.Name)
}

// interactiveOf says whether p is classified by its screen, as the engine
// decides it: its interactive: key, else its preset (presetInteractive).
// The JSON mode of an agent CLI is read by its protocol, never by a
// preset's screen patterns.
func interactiveOf(p *Proc) (interactive, presetInteractive bool) {
	if p.AgentProtocol() == "" {
		detected, ok := frameworks.Resolve(p.Framework, p.Command.String(), p.Command.Args(), p.Cwd)
		presetInteractive = ok && detected.Preset.Interactive
	}
	return p.IsInteractive(presetInteractive), presetInteractive
}

// IsInteractive says whether p is classified by its screen: its
// interactive: key, else whether its preset is (presetInteractive).
func (p *Proc) IsInteractive(presetInteractive bool) bool {
	if p.Interactive != nil {
		return *p.Interactive
	}
	return presetInteractive
}

// InTerminal says whether p runs in a pseudo-terminal: its pty: key, else
// whether it is interactive (an agent CLI needs a terminal to show its
// prompt at all).
func (p *Proc) InTerminal(interactive bool) bool {
	if p.PTY.Set {
		return p.PTY.Enabled
	}
	return interactive
}

// screenPatternTargets checks that screen patterns (busyPatterns and the
// others) are only on processes classified by their screen: on any other
// they would do nothing.
func (v *validator) screenPatternTargets() {
	for _, name := range v.cfg.Names() {
		p := v.cfg.Procs[name]
		type patternSet struct {
			key      string
			patterns []string
		}
		sets := []patternSet{
			{"busyPatterns", p.BusyPatterns}, {"questionPatterns", p.QuestionPatterns},
			{"permissionPatterns", p.PermissionPatterns}, {"recoverablePatterns", p.RecoverablePatterns},
		}
		if !slices.ContainsFunc(sets, func(set patternSet) bool { return len(set.patterns) > 0 }) {
			continue
		}
		// Its preset is looked for once (a look at its project's files).
		if interactive, _ := interactiveOf(p); interactive {
			continue
		}
		for _, set := range sets {
			if len(set.patterns) > 0 {
				v.p.atKey([]string{"procs", name, set.key}, "%s classify the screen of an interactive process, and %s is not one: add interactive: true to %s, or remove %s", set.key, name, name, set.key)
			}
		}
	}
}
