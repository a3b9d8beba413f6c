package compose

import (
	"fmt"
	"slices"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// interactiveSpec completes the detection of an interactive process (an
// agent CLI, a shell, a REPL): one with `interactive: true`, or whose
// preset is interactive and that does not say `interactive: false`. Its
// patterns extend the preset's, like the others. Screen patterns on a
// process that is not interactive are an error: they would do nothing.
func interactiveSpec(p *config.Proc, preset *frameworks.Preset, spec *rules.Spec) error {
	presetInteractive := preset != nil && preset.Interactive
	spec.Interactive = p.IsInteractive(presetInteractive)
	var base frameworks.AgentPatterns
	if presetInteractive {
		base = preset.AgentPatterns
	}
	spec.Agent.AnnouncesState = spec.Interactive && base.AnnouncesState
	sets := []struct {
		key  string
		own  []string
		srcs []string
		dst  *[]rules.Pattern
	}{
		{"busyPatterns", p.BusyPatterns, slices.Concat(base.BusyPatterns, p.BusyPatterns), &spec.Agent.Busy},
		{"questionPatterns", p.QuestionPatterns, slices.Concat(base.QuestionPatterns, p.QuestionPatterns), &spec.Agent.Question},
		{"permissionPatterns", p.PermissionPatterns, slices.Concat(base.PermissionPatterns, p.PermissionPatterns), &spec.Agent.Permission},
		{"recoverablePatterns", p.RecoverablePatterns, slices.Concat(base.RecoverablePatterns, p.RecoverablePatterns), &spec.Agent.Recoverable},
	}
	for _, set := range sets {
		if len(set.own) > 0 && !spec.Interactive {
			return fmt.Errorf("%s: %s classify the screen of an interactive process: add `interactive: true`", p.Name, set.key)
		}
		if len(set.srcs) == 0 || !spec.Interactive {
			continue
		}
		patterns, err := rules.CompilePatterns(set.srcs)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p.Name, set.key, err)
		}
		*set.dst = patterns
	}
	return nil
}

// usesPTY says whether a process runs in a pseudo-terminal, with the
// preset it runs with (config.Proc.InTerminal).
func usesPTY(p *config.Proc, preset string) bool {
	fw, ok := frameworks.Lookup(preset)
	return p.InTerminal(p.IsInteractive(preset != "" && ok && fw.Interactive))
}

// windowSize is the PTY window of a process: its config, else 120x40.
func windowSize(p *config.Proc) (cols, rows int) {
	cols, rows = p.PTY.Cols, p.PTY.Rows
	if cols == 0 {
		cols = rules.DefaultCols
	}
	if rows == 0 {
		rows = rules.DefaultRows
	}
	return cols, rows
}

// interactive reports whether the process is classified by its screen.
func (ps *procState) interactive() bool { return ps.detect.Interactive && ps.pty }

// ModeOf says, for people (procs detect), how a process runs and how its
// state is decided: by its screen, in a terminal, or from its lines.
func ModeOf(p *config.Proc, d Detection) string {
	preset := ""
	if d.Preset != nil {
		preset = d.Preset.Name
	}
	switch {
	case d.Spec != nil && d.Spec.AgentProtocol != "":
		return agentMode(d.Spec)
	case d.Spec != nil && d.Spec.Interactive && usesPTY(p, preset):
		mode := "interactive: in a terminal, classified by its screen (ready at its prompt, busy, awaiting-input, awaiting-permission)"
		if d.Spec.Agent.AnnouncesState {
			mode += ", and by the state it announces (OSC 7501): not ready before it says idle, busy while it says working"
		}
		return mode
	case d.Spec != nil && d.Spec.Interactive:
		return "interactive, but pty: false: without a terminal its screen cannot be read, so its lines decide"
	case usesPTY(p, preset):
		return "in a terminal: its lines, and the cursor row once output pauses (a prompt has no newline), decide"
	}
	return "pipes: its lines decide"
}
