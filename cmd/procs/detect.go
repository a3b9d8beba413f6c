package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose"
)

func (a *app) detectCommand() *cobra.Command {
	var asJSON bool
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
			cfg, err := a.loadConfig()
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
					return withCode(exitUsage, fmt.Errorf("%w %q (known: %s)", compose.ErrUnknownProcess, name, strings.Join(cfg.Names(), ", ")))
				}
				choices = append(choices, explainChoice(cfg, p))
			}
			if asJSON {
				return a.printJSON(choices)
			}
			a.printChoices(choices)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the explanation as JSON")
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
	// Reason says why that preset, or why none.
	Reason string `json:"reason"`
	// The settings in effect: the preset's merged with the process's own.
	ReadyPatterns    []string          `json:"readyPatterns"`
	ErrorPatterns    []string          `json:"errorPatterns"`
	NotReadyPatterns []string          `json:"notReadyPatterns"`
	Ready            string            `json:"ready,omitempty"`
	Port             int               `json:"port,omitempty"`
	ReadyTimeout     string            `json:"readyTimeout,omitempty"`
	StabilityDelay   string            `json:"stabilityDelay,omitempty"`
	Env              map[string]string `json:"env,omitempty"`
	// ReadyWhen and FailedWhen say the same for people.
	ReadyWhen  string `json:"readyWhen"`
	FailedWhen string `json:"failedWhen"`
}

// explainChoice merges a process's settings with its preset the way the
// engine does (compose/detection.go): patterns extend the preset's, a
// timeout or delay of the process replaces the preset's, and a silent
// server's preset waits for a listening port when nothing else is set.
func explainChoice(cfg *compose.Config, p *compose.Proc) choiceView {
	c := choiceView{
		Name: p.Name, Command: p.Command.String(), Cwd: relativeDir(cfg.Dir, p.Cwd), Framework: p.Framework,
		Ready: p.Ready, Port: p.Port,
	}
	ready, errs, notReady := p.ReadyPatterns, p.ErrorPatterns, p.NotReadyPatterns
	timeout, delay := p.ReadyTimeout.D(), p.StabilityDelay.D()
	det, ok := frameworks.Resolve(p.Framework, p.Command.String(), p.Command.Args(), p.Cwd)
	switch {
	case ok:
		preset := det.Preset
		c.Preset, c.Category, c.Reason, c.Env = preset.Name, preset.Category, det.Reason, preset.Env
		ready = slices.Concat(preset.ReadyPatterns, ready)
		errs = slices.Concat(preset.ErrorPatterns, errs)
		notReady = slices.Concat(preset.NotReadyPatterns, notReady)
		if timeout == 0 {
			timeout = preset.ReadyTimeout
		}
		if delay == 0 {
			delay = preset.StabilityDelay
		}
		if preset.ReadyWhenListening && p.Ready == "" && p.Port == 0 && len(ready) == 0 {
			c.Ready = frameworks.ListeningRule
		}
	case p.Framework == "none":
		c.Reason = "framework: none turns presets off for this process"
	default:
		c.Reason = fmt.Sprintf("no preset matched %q: no preset's command regex, package.json script or dependency, or project file in %s names it",
			c.Command, c.Cwd)
	}
	c.ReadyPatterns, c.ErrorPatterns, c.NotReadyPatterns = nonNil(ready), nonNil(errs), nonNil(notReady)
	c.ReadyTimeout, c.StabilityDelay = durationText(timeout), durationText(delay)
	c.ReadyWhen = readyWhen(c, p.IsTask(), timeout, delay)
	c.FailedWhen = failedWhen(c.ErrorPatterns, p.IsTask())
	return c
}

// readyWhen says what makes the process ready, following the rules of the
// detector: ready lines and the ready rule if any; else the port if any;
// else a service is ready by running and a task only completes.
func readyWhen(c choiceView, task bool, timeout, delay time.Duration) string {
	var conds []string
	if len(c.ReadyPatterns) > 0 {
		conds = append(conds, "a line matches "+patternList(c.ReadyPatterns, "or"))
	}
	switch {
	case c.Ready == frameworks.ListeningRule && c.Preset != "":
		conds = append(conds, fmt.Sprintf("its process tree listens on a TCP port (%s prints nothing when ready; set port: to wait for one port)", c.Preset))
	case c.Ready != "":
		conds = append(conds, fmt.Sprintf("the rule %q is true", c.Ready))
	}
	var text string
	switch {
	case len(conds) > 0:
		text = "when " + strings.Join(conds, " and ")
	case c.Port != 0:
		text = fmt.Sprintf("when port %d is open, opened by its own process tree", c.Port)
	case task:
		return "never: a task has nothing to be ready for; it is completed when it exits 0"
	default:
		text = "as soon as it is running: it has no readyPatterns, port or ready rule to wait for"
	}
	if delay > 0 {
		text += fmt.Sprintf(", and then %s without an error line", delay)
	}
	if timeout > 0 {
		text += fmt.Sprintf("; failed if not ready within %s", timeout)
	}
	return text
}

// failedWhen says what makes the process failed.
func failedWhen(errorPatterns []string, task bool) string {
	exit := "when it exits (even with code 0: a service is meant to keep running)"
	if task {
		exit = "when it exits with a code other than 0"
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
		fmt.Fprintf(a.stdout, "%s: %s\n", c.Name, what)
		fmt.Fprintf(a.stdout, "  why:    %s\n", c.Reason)
		fmt.Fprintf(a.stdout, "  ready:  %s\n", c.ReadyWhen)
		fmt.Fprintf(a.stdout, "  failed: %s\n", c.FailedWhen)
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
