package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

func (a *app) detectCommand() *cobra.Command {
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "detect [NAME...]",
		Short: "Explain which preset each process uses, why, and what will make it ready or failed",
		Long: `For each process of procs.yaml (or only NAME...), say which built-in preset
procs picked and why: the command regex, package.json script or dependency, or
project file that matched, or "framework: NAME" when procs.yaml names it, or
that none matched. Then say what makes the process ready and what makes it
failed, with the preset's settings merged with its own.

Nothing is started.`,
		RunE: func(cmd *cobra.Command, names []string) error {
			cfg, err := a.loadConfigToDetect()
			if err != nil {
				return err
			}
			if len(names) == 0 {
				names = cfg.Names()
			}
			choices := make([]choiceView, 0, len(names))
			for _, name := range names {
				p, ok := cfg.Procs[name]
				if !ok {
					return withCode(exitUsage, &config.UnknownProcessError{Name: name, Known: cfg.Names()})
				}
				c, err := explainChoice(cfg, p)
				if err != nil {
					return err
				}
				choices = append(choices, c)
			}
			if jsonOut.on() {
				return jsonOut.print(choices)
			}
			a.printChoices(choices)
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print the explanation as JSON")
	return cmd
}

// choiceView is what detect says about one process.
type choiceView struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	// Framework is the setting in procs.yaml: auto, none or a preset name.
	Framework string `json:"framework"`
	// Preset is the preset in use, "" when none.
	Preset   string `json:"preset"`
	Category string `json:"category,omitempty"`
	// Runtime names the runtime the program runs on when Preset is that
	// runtime's, not the program's own ("node" for hardhat).
	Runtime string `json:"runtime,omitempty"`
	// Reason says why that preset, or why none.
	Reason string `json:"reason"`
	// The settings in effect: the preset's merged with the process's own.
	ReadyPatterns    []string `json:"readyPatterns"`
	ErrorPatterns    []string `json:"errorPatterns"`
	NotReadyPatterns []string `json:"notReadyPatterns"`
	Ready            string   `json:"ready,omitempty"`
	Port             int      `json:"port,omitempty"`
	ReadyTimeout     string   `json:"readyTimeout,omitempty"`
	StabilityDelay   string   `json:"stabilityDelay,omitempty"`
	// StabilityWhy names the recorded runs that show the preset's delay
	// is needed.
	StabilityWhy string `json:"stabilityWhy,omitempty"`
	// ReadyOnListen: a port its tree listens on counts as ready.
	ReadyOnListen bool `json:"readyOnListen,omitempty"`
	// AssumeReadyAfter: with no sign by then, and no error, it is ready.
	AssumeReadyAfter string `json:"assumeReadyAfter,omitempty"`
	// Probe is the preset's probe that must pass too, once the process
	// tree listens on its port ("" when none).
	Probe string            `json:"probe,omitempty"`
	Env   map[string]string `json:"env,omitempty"`
	// Mode says how it runs and what decides its state: interactive
	// (its screen), a terminal (lines and the cursor row) or pipes.
	Mode string `json:"mode"`
	// ReadyWhen and FailedWhen say the same for people.
	ReadyWhen  string `json:"readyWhen"`
	FailedWhen string `json:"failedWhen"`
	// Limits says the run's resources: and whether they hold here.
	Limits string `json:"limits,omitempty"`
}

// explainChoice says what the engine will do with a process: the detection
// it runs (compose.DetectionOf, the preset's settings merged with the
// process's own), told for people.
func explainChoice(cfg *config.Config, p *config.Proc) (choiceView, error) {
	c := choiceView{
		Name: p.Name, Command: p.Command.String(), Cwd: relativeDir(cfg.Dir, p.Cwd), Framework: p.Framework,
		Ready: p.Ready, Port: p.Port,
	}
	det, err := compose.DetectionOf(p, cfg.Env)
	if err != nil {
		return c, withCode(exitUsage, err)
	}
	switch {
	case det.Preset != nil:
		c.Preset, c.Category, c.Reason, c.Env = det.Preset.Name, det.Preset.Category, det.Reason, det.Preset.Env
		c.Runtime = det.Runtime
	case p.Framework == "none":
		c.Reason = "framework: none turns presets off for this process"
	default:
		c.Reason = fmt.Sprintf("no preset matched %q: no preset's command regex, package.json script or dependency, or project file in %s names it",
			c.Command, c.Cwd)
	}
	spec := det.Spec
	c.ReadyPatterns, c.ErrorPatterns, c.NotReadyPatterns = sources(spec.ReadyPatterns), sources(spec.ErrorPatterns), sources(spec.NotReadyPatterns)
	c.ReadyTimeout, c.StabilityDelay = durationText(spec.ReadyTimeout), durationText(spec.StabilityDelay)
	c.ReadyOnListen, c.AssumeReadyAfter = spec.ReadyOnListen, durationText(spec.AssumeReadyAfter)
	switch pr := det.Preset; {
	case pr == nil:
	case pr.MayDaemonize(p.Command.String()) && spec.StabilityDelay == frameworks.DaemonGrace:
		c.StabilityWhy = pr.Name + " puts itself in the background unless told not to, and its command does not: " +
			"it opens its port, then the command exits 0, which procs fails (it cannot watch a daemon)"
	case pr.StabilityDelay > 0 && spec.StabilityDelay == pr.StabilityDelay:
		c.StabilityWhy = "recorded runs of " + pr.Name + " failed inside it, after their ready line: " +
			strings.Join(pr.StabilityEvidence, ", ")
	}
	if spec.ReadyProbe != nil {
		c.Probe = rules.DescribeProbe(*spec.ReadyProbe)
	}
	c.ReadyWhen = readyWhen(c, spec)
	c.Mode = compose.ModeOf(p, det)
	c.FailedWhen = failedWhen(c.ErrorPatterns, p.IsTask(), spec.Interactive)
	if spec.AgentProtocol != "" {
		c.ReadyWhen, c.FailedWhen = agentReadyWhen(spec), agentFailedWhen(spec)
	}
	c.Limits = limitsText(cfg.ResourcesOf(p))
	return c, nil
}

// sources returns the regexes of patterns as written.
func sources(patterns []rules.Pattern) []string {
	out := make([]string, len(patterns))
	for i, p := range patterns {
		out[i] = p.Source
	}
	return out
}

// readyWhen says what makes the process ready, following the rules of the
// detector: ready lines (or a listening port, for presets that allow it)
// and the ready rule if any; else the port if any; else a service is ready
// by running and a task only completes.
func readyWhen(c choiceView, spec *rules.Spec) string {
	var conds []string
	if len(c.ReadyPatterns) > 0 {
		line := "a line matches " + patternList(c.ReadyPatterns, "or")
		switch {
		case spec.Port != 0 && spec.Rule == nil:
			// A line is believed once the port it stands for is open
			// (rules' lineAgreesWithPorts).
			line += fmt.Sprintf(" and port %d is open, opened by its own process tree", spec.Port)
		case spec.ReadyLinePort && spec.Port == 0 && spec.ReadyLineListens:
			line += fmt.Sprintf(" (once its process tree listens on the port that line names, or on a TCP port if it names none: %s says it before it binds)", c.subject())
		case spec.ReadyLinePort && spec.Port == 0:
			line += " (once its process tree listens on the port that line names, if it names one)"
		}
		if spec.ReadyOnListen {
			line += ", or its process tree listens on a TCP port"
		}
		conds = append(conds, line)
	} else if spec.ReadyOnListen {
		conds = append(conds, fmt.Sprintf("its process tree listens on a TCP port (%s may print nothing when ready; set port: to wait for one port)", c.subject()))
	}
	if spec.Rule != nil {
		conds = append(conds, fmt.Sprintf("the rule %q is true", spec.Rule.Source))
	}
	var text string
	switch {
	case len(conds) > 0:
		text = "when " + strings.Join(conds, " and ")
	case c.Port != 0:
		text = fmt.Sprintf("when port %d is open, opened by its own process tree", c.Port)
	case spec.Task:
		return "never: a task has nothing to be ready for; it is completed when it exits 0"
	case spec.Healthcheck != nil:
		text = "when its healthcheck passes"
	default:
		text = "when it is running (it has no readyPatterns, port or ready rule to wait for)"
	}
	if spec.Healthcheck != nil {
		if len(conds)+c.Port > 0 {
			text += ", and its healthcheck passes"
		}
		text += " (" + rules.DescribeProbe(*spec.Healthcheck) + ")"
	}
	if settle := spec.Settle(); settle > 0 {
		text += fmt.Sprintf(", and then %s without an error line", settle)
		if c.StabilityWhy != "" {
			text += " (" + c.StabilityWhy + ")"
		}
	}
	if c.Probe != "" {
		text += fmt.Sprintf("; once its process tree listens on port %d, only when %s passes", spec.ProbePort, c.Probe)
	}

	switch {
	case spec.ReadyTimeout > 0:
		text += fmt.Sprintf("; failed if not ready within %s", spec.ReadyTimeout)
	case spec.AssumeReadyAfter > 0:
		text += fmt.Sprintf("; assumed ready after %s without an error if neither comes (%s may run a worker)",
			spec.AssumeReadyAfter, c.subject())
		if spec.AssumeReadyAfter < rules.AssumeBusyMax {
			text += fmt.Sprintf(", or up to %s while still busy starting on a CPU or after saying where it serves", rules.AssumeBusyMax)
		}
		text += "; never if it exits first"
		if spec.ReadyLinePort && spec.Port == 0 {
			text += ", or while its ready line names a port its tree does not listen on (failed then)"
		}
	}
	return text
}

// failedWhen says what makes the process failed: a service's exit, a
// task's or an interactive program's other than 0 (exit 0 or Ctrl-C is
// the user leaving it, rules' user-exit).
func failedWhen(errorPatterns []string, task, interactive bool) string {
	exit := "when it exits (even with code 0: a service is meant to keep running)"
	switch {
	case task:
		exit = "when it exits with a code other than 0"
	case interactive:
		exit = "when it exits with a code other than 0 (exit 0, Ctrl-C, or any code after a bare exit, logout, quit() or \\q typed to it, is the user leaving it: stopped)"
	}
	if len(errorPatterns) == 0 {
		return exit
	}
	return "when a line matches " + patternList(errorPatterns, "or") + ", or " + strings.TrimPrefix(exit, "when ")
}

func patternList(patterns []string, conj string) string {
	quoted := make([]string, len(patterns))
	for i, p := range patterns {
		quoted[i] = "/" + p + "/"
	}
	if len(quoted) == 1 {
		return quoted[0]
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " " + conj + " " + quoted[len(quoted)-1]
}

// relativeDir shows dir relative to the folder of procs.yaml.
func relativeDir(base, dir string) string {
	rel, err := filepath.Rel(base, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return dir
	}
	if rel == "." {
		return "."
	}
	return "./" + rel
}

// subject names what runs, for the texts that say what it may do: the
// preset's program, or "the program" when the preset is its runtime's.
func (c choiceView) subject() string {
	if c.Runtime != "" {
		return "the program"
	}
	return c.Preset
}

// printChoices writes one block per process.
func (a *app) printChoices(choices []choiceView) {
	for i, c := range choices {
		if i > 0 {
			fmt.Fprintln(a.stdout)
		}
		what := "no preset"
		if c.Preset != "" {
			what = fmt.Sprintf("%s (%s)", c.Preset, c.Category)
		}
		if c.Runtime != "" {
			what += ", the preset of " + c.Runtime + " programs"
		}
		fmt.Fprintf(a.stdout, "%s: %s\n", c.Name, what)
		fmt.Fprintf(a.stdout, "  why:    %s\n", c.Reason)
		fmt.Fprintf(a.stdout, "  mode:   %s\n", c.Mode)
		fmt.Fprintf(a.stdout, "  ready:  %s\n", c.ReadyWhen)
		fmt.Fprintf(a.stdout, "  failed: %s\n", c.FailedWhen)
		if c.Limits != "" {
			fmt.Fprintf(a.stdout, "  limits: %s\n", c.Limits)
		}
		if len(c.Env) > 0 {
			keys := make([]string, 0, len(c.Env))
			for k := range c.Env {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			pairs := make([]string, len(keys))
			for j, k := range keys {
				pairs[j] = k + "=" + c.Env[k]
			}
			fmt.Fprintf(a.stdout, "  env:    %s (from the preset, under the process's own)\n", strings.Join(pairs, " "))
		}
	}
}
