package compose

import (
	"fmt"
	"slices"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// interactiveSpec completes the detection of an interactive process (an
// agent CLI, a shell, a REPL): one whose preset says so, or that sets agent
// patterns itself. Its patterns extend the preset's, like the others.
func interactiveSpec(p *config.Proc, preset *frameworks.Preset, spec *rules.Spec) error {
	var base frameworks.AgentPatterns
	if preset != nil && preset.Interactive {
		base = preset.AgentPatterns
		spec.Interactive = true
	}
	sets := []struct {
		key  string
		srcs []string
		dst  *[]rules.Pattern
	}{
		{"busyPatterns", slices.Concat(base.BusyPatterns, p.BusyPatterns), &spec.Agent.Busy},
		{"questionPatterns", slices.Concat(base.QuestionPatterns, p.QuestionPatterns), &spec.Agent.Question},
		{"permissionPatterns", slices.Concat(base.PermissionPatterns, p.PermissionPatterns), &spec.Agent.Permission},
		{"recoverablePatterns", slices.Concat(base.RecoverablePatterns, p.RecoverablePatterns), &spec.Agent.Recoverable},
	}
	for _, set := range sets {
		if len(set.srcs) == 0 {
			continue
		}
		spec.Interactive = true
		patterns, err := rules.CompilePatterns(set.srcs)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", p.Name, set.key, err)
		}
		*set.dst = patterns
	}
	return nil
}

// usesPTY says whether a process runs in a pseudo-terminal: when its config
// says so, or, when the config says nothing, when its preset is interactive
// (an agent CLI needs a terminal to show its prompt at all).
func usesPTY(p *config.Proc, preset string) bool {
	if p.PTY.Set {
		return p.PTY.Enabled
	}
	if preset == "" {
		return false
	}
	fw, ok := frameworks.Lookup(preset)
	return ok && fw.Interactive
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
