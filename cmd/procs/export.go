package main

import (
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/export"
	"github.com/procsdev/procs/compose/export/dockercompose"
	"github.com/procsdev/procs/compose/export/kube"
	"github.com/procsdev/procs/compose/export/systemd"
)

// exportFormats are the formats of procs export, in the order --help lists them.
func exportFormats() []export.Format {
	return []export.Format{systemd.Format{}, dockercompose.Format{}, kube.Format{}}
}

func (a *app) exportCommand() *cobra.Command {
	var opts export.Options
	var jsonOut *jsonOutput
	var formatLines []string
	for _, f := range exportFormats() {
		formatLines = append(formatLines, fmt.Sprintf("  %-8s %s", f.Name(), f.Summary()))
	}
	cmd := &cobra.Command{
		Use:   "export FORMAT [NAME...]",
		Short: "Write the project as systemd units, a Docker Compose file or Kubernetes manifests",
		Long: `Write the resolved config (procs.yaml with its override, PROCS_* variables,
--set and env files) in another runner's format, for when a project outgrows
one machine: the processes procs up starts (with --profile), or NAME... and
their dependencies. Files go to standard output, or to the folder of -o.
Nothing is started and no running system is touched.

Formats:
` + strings.Join(formatLines, "\n") + `

What a format cannot express is said on standard error, one warning per
process and thing left out, with what to write instead (README, "Outgrowing
one machine").`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			format, err := exportFormat(args[0])
			if err != nil {
				return withCode(exitUsage, err)
			}
			cfg, err := a.loadConfigToDetect()
			if err != nil {
				return err
			}
			opts.Names = args[1:]
			if opts.Profiles, err = a.activeProfiles(cfg, opts.Profiles); err != nil {
				return withCode(exitUsage, err)
			}
			if u, err := user.Current(); err == nil {
				opts.User = u.Username
			}
			return a.export(cfg, format, opts, jsonOut)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.OutDir, "output", "o", "", "write the files to this folder (made if missing) instead of standard output")
	f.StringSliceVar(&opts.Profiles, "profile", nil, "also export the processes of this profile (repeat, or a comma list; PROCS_PROFILES adds more)")
	f.StringVar(&opts.Name, "name", "", "the project's name in unit, volume and label names (default: the folder of procs.yaml)")
	f.BoolVar(&opts.SystemdSystem, "system", false, "systemd: system units (multi-user.target, User= you) instead of user units")
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print {files: [{name, content}], warnings: [{proc, text}]} instead of the files and warnings (with -o, the files are written too)")
	return cmd
}

// exportJSON is what procs export --json prints.
type exportJSON struct {
	Files    []exportFileJSON    `json:"files"`
	Warnings []exportWarningJSON `json:"warnings"`
}

type exportFileJSON struct {
	Name    string `json:"name"`
	Content string `json:"content"`
}

type exportWarningJSON struct {
	Proc string `json:"proc"`
	Text string `json:"text"`
}

// printExportJSON prints what an export made as one JSON object.
func printExportJSON(jsonOut *jsonOutput, out *export.Output) error {
	doc := exportJSON{Files: []exportFileJSON{}, Warnings: []exportWarningJSON{}}
	for _, file := range out.Files {
		doc.Files = append(doc.Files, exportFileJSON{Name: file.Name, Content: string(file.Data)})
	}
	for _, w := range out.Warnings {
		doc.Warnings = append(doc.Warnings, exportWarningJSON{Proc: w.Proc, Text: w.Text})
	}
	return jsonOut.print(doc)
}

// formatAliases are the other names a format goes by.
var formatAliases = map[string]string{"k8s": "kubernetes", "docker-compose": "compose"}

// exportFormat finds the format called name (or one of its aliases).
func exportFormat(name string) (export.Format, error) {
	if full, ok := formatAliases[name]; ok {
		name = full
	}
	var names []string
	for _, f := range exportFormats() {
		if f.Name() == name {
			return f, nil
		}
		names = append(names, f.Name())
	}
	return nil, fmt.Errorf("unknown export format %q: use one of %s", name, strings.Join(names, ", "))
}

// export makes the files and writes them, then the warnings.
func (a *app) export(cfg *config.Config, format export.Format, opts export.Options, jsonOut *jsonOutput) error {
	project, err := export.New(cfg, opts)
	if err != nil {
		return withCode(exitUsage, err)
	}
	out, err := format.Export(project)
	if err != nil {
		return withCode(exitUsage, err)
	}
	// The warnings of one process together, in the order each was said.
	slices.SortStableFunc(out.Warnings, func(x, y export.Warning) int { return strings.Compare(x.Proc, y.Proc) })
	if jsonOut.on() {
		if opts.OutDir != "" {
			if err := writeExport(opts.OutDir, out.Files); err != nil {
				return withCode(exitFailure, err)
			}
		}
		return printExportJSON(jsonOut, out)
	}
	if opts.OutDir == "" {
		for i, file := range out.Files {
			if len(out.Files) > 1 {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				fmt.Fprintf(a.stdout, "# ==> %s <==\n", file.Name)
			}
			a.stdout.Write(file.Data)
		}
	} else if err := writeExport(opts.OutDir, out.Files); err != nil {
		return withCode(exitFailure, err)
	}
	for _, w := range out.Warnings {
		fmt.Fprintf(a.stderr, "procs export: warning: %s\n", w)
	}
	switch {
	case opts.OutDir != "" && len(out.Files) == 1:
		fmt.Fprintf(a.stderr, "procs export: wrote %s to %s\n", out.Files[0].Name, opts.OutDir)
	case opts.OutDir != "":
		fmt.Fprintf(a.stderr, "procs export: wrote %d files to %s\n", len(out.Files), opts.OutDir)
	}
	return nil
}

// writeExport writes files under dir.
func writeExport(dir string, files []export.File) error {
	for _, file := range files {
		path := filepath.Join(dir, filepath.FromSlash(file.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		if err := os.WriteFile(path, file.Data, 0o644); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	return nil
}

var _ = slices.Contains[[]string]
