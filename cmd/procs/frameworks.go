package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
)

func (a *app) frameworksCommand() *cobra.Command {
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "frameworks [NAME...]",
		Short: "List the built-in presets: what each recognises and how it tells ready from failed",
		Long: `List the built-in presets (or only NAME...): name, category, default port,
how procs detects the program (command line, package.json dependency, project
files) and a description. --json adds every pattern, env and timeout.

A process uses a preset when its framework is auto (the default) and procs
detects it, or when it names one (framework: NAME). procs detect explains the
choice for each process of procs.yaml.`,
		RunE: func(cmd *cobra.Command, names []string) error {
			presets, err := selectPresets(names)
			if err != nil {
				return err
			}
			if jsonOut.on() {
				views := make([]presetView, len(presets))
				for i, p := range presets {
					views[i] = newPresetView(p)
				}
				return jsonOut.print(views)
			}
			a.printPresetTable(presets)
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print every preset in full as JSON")
	return cmd
}

// selectPresets returns the presets called names, or all of them.
func selectPresets(names []string) ([]*frameworks.Preset, error) {
	if len(names) == 0 {
		return frameworks.All(), nil
	}
	var out []*frameworks.Preset
	for _, name := range names {
		p, ok := frameworks.Lookup(name)
		if !ok {
			return nil, withCode(exitUsage, fmt.Errorf("no preset %q (procs frameworks lists them)", name))
		}
		out = append(out, p)
	}
	return out, nil
}

func (a *app) printPresetTable(presets []*frameworks.Preset) {
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tCATEGORY\tPORT\tDESCRIPTION\tDETECTED BY")
	for _, p := range presets {
		port := "-"
		if p.DefaultPort != 0 {
			port = strconv.Itoa(p.DefaultPort)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", p.Name, p.Category, port, p.Description, detectSummary(p.Detect))
	}
	tw.Flush()
}

// detectSummary says in one line how a preset is recognised, e.g.
// `command /(^|[\s/])vite(...)/; package.json: vite`.
func detectSummary(d frameworks.DetectSpec) string {
	var parts []string
	if len(d.Command) > 0 {
		res := make([]string, len(d.Command))
		for i, re := range d.Command {
			res[i] = "/" + re + "/"
		}
		what := "command "
		if d.Fallback {
			what = "command (after package.json and files) "
		}
		parts = append(parts, what+strings.Join(res, " or "))
	}
	if len(d.PackageJSON) > 0 {
		parts = append(parts, "package.json: "+strings.Join(d.PackageJSON, ", "))
	}
	if len(d.Files) > 0 {
		groups := make([]string, len(d.Files))
		for i, g := range d.Files {
			groups[i] = strings.Join(g, "+")
		}
		parts = append(parts, fmt.Sprintf("files: %s (run by %s)", strings.Join(groups, ", "), strings.Join(d.Runners, ", ")))
	}
	if len(parts) == 0 {
		return "only by name (framework: NAME)"
	}
	return strings.Join(parts, "; ")
}

// presetView is the JSON form of a preset.
type presetView struct {
	Name               string     `json:"name"`
	Description        string     `json:"description"`
	Category           string     `json:"category"`
	Detect             detectView `json:"detect"`
	DetectedBy         string     `json:"detectedBy"`
	ReadyPatterns      []string   `json:"readyPatterns"`
	ErrorPatterns      []string   `json:"errorPatterns"`
	NotReadyPatterns   []string   `json:"notReadyPatterns"`
	ReadyWhenListening bool       `json:"readyWhenListening,omitempty"`
	// ReadyLineBeforeListen: a ready line naming no port counts once the
	// tree listens on a TCP port.
	ReadyLineBeforeListen bool   `json:"readyLineBeforeListen,omitempty"`
	AssumeReadyAfter      string `json:"assumeReadyAfter,omitempty"`
	// The screen patterns of interactive presets.
	BusyPatterns        []string          `json:"busyPatterns,omitempty"`
	QuestionPatterns    []string          `json:"questionPatterns,omitempty"`
	PermissionPatterns  []string          `json:"permissionPatterns,omitempty"`
	RecoverablePatterns []string          `json:"recoverablePatterns,omitempty"`
	DefaultPort         int               `json:"defaultPort,omitempty"`
	PortFlag            string            `json:"portFlag,omitempty"`
	PortEnv             string            `json:"portEnv,omitempty"`
	DefaultHost         string            `json:"defaultHost,omitempty"`
	HostFlags           []string          `json:"hostFlags,omitempty"`
	HostEnv             string            `json:"hostEnv,omitempty"`
	Env                 map[string]string `json:"env,omitempty"`
	ReadyTimeout        string            `json:"readyTimeout,omitempty"`
	StabilityDelay      string            `json:"stabilityDelay,omitempty"`
	Interactive         bool              `json:"interactive,omitempty"`
	Sources             []string          `json:"sources,omitempty"`
}

// detectView is the JSON form of a preset's detect rules.
type detectView struct {
	Command     []string   `json:"command,omitempty"`
	PackageJSON []string   `json:"packageJson,omitempty"`
	Files       [][]string `json:"files,omitempty"`
	Runners     []string   `json:"runners,omitempty"`
	Fallback    bool       `json:"fallback,omitempty"`
}

func newPresetView(p *frameworks.Preset) presetView {
	return presetView{
		Name: p.Name, Description: p.Description, Category: p.Category,
		Detect: detectView{Command: p.Detect.Command, PackageJSON: p.Detect.PackageJSON,
			Files: p.Detect.Files, Runners: p.Detect.Runners, Fallback: p.Detect.Fallback},
		DetectedBy:    detectSummary(p.Detect),
		ReadyPatterns: nonNil(p.ReadyPatterns), ErrorPatterns: nonNil(p.ErrorPatterns),
		NotReadyPatterns: nonNil(p.NotReadyPatterns), ReadyWhenListening: p.ReadyWhenListening,
		ReadyLineBeforeListen: p.ReadyLineBeforeListen,
		DefaultPort:           p.DefaultPort, PortFlag: p.PortFlag, PortEnv: p.PortEnv, Env: p.Env,
		DefaultHost: p.DefaultHost, HostFlags: p.HostFlags, HostEnv: p.HostEnv,
		ReadyTimeout: durationText(p.ReadyTimeout), StabilityDelay: durationText(p.StabilityDelay),
		AssumeReadyAfter: durationText(p.AssumeReadyAfter),
		BusyPatterns:     p.BusyPatterns, QuestionPatterns: p.QuestionPatterns,
		PermissionPatterns: p.PermissionPatterns, RecoverablePatterns: p.RecoverablePatterns,
		Interactive: p.Interactive, Sources: p.Sources,
	}
}

// nonNil makes an absent list an empty JSON array, so scripts need not
// tell null from [].
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

func durationText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}
