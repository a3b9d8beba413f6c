package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/internal/osproc"
)

// rootCommand builds the command tree. Each subcommand lives in its own file.
func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "procs",
		Short: "Start a project's processes in dependency order, each gated on its dependencies being ready",
		Long: `procs reads procs.yaml, starts every process in dependency order and gates
each one on its dependencies being ready: by its log, its port, HTTP or exec
probes, or an expr rule, with built-in presets for common servers.

Exit codes: 0 ok, 1 a process failed or is not ready, 2 usage or config error,
3 no procs running in this folder.`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		// With no command, the help; an unknown one is an error that
		// suggests commands by alias too (suggest.go).
		Args:                       unknownCommand,
		SuggestionsMinimumDistance: 2,
		RunE:                       func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	// The second line says what this platform gives procs (README: Platforms).
	root.SetVersionTemplate("procs {{.Version}}\nplatform " + osproc.Features().Summary() + "\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return withCode(exitUsage, err)
	})
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return checkTimeout(cmd) }

	flags := root.PersistentFlags()
	flags.StringVarP(&a.file, "file", "f", "", "config file (default: procs.yaml in the current folder, or $PROCS_FILE)")
	flags.StringArrayVar(&a.set, "set", nil, "override a config value, e.g. --set procs.api.port=9090 (repeatable)")
	flags.BoolVar(&a.noColor, "no-color", false, "disable colour output (also NO_COLOR=1)")

	root.AddCommand(
		a.initCommand(),
		a.checkCommand(),
		a.configCommand(),
		a.schemaCommand(),
		a.frameworksCommand(),
		a.detectCommand(),
		a.upCommand(),
		a.statusCommand(),
		a.topCommand(),
		a.analyzeCommand(),
		a.graphCommand(),
		a.restartCommand(),
		a.reloadCommand(),
		a.scaleCommand(),
		a.startCommand(),
		a.stopCommand(),
		a.waitCommand(),
		a.logsCommand(),
		a.eventsCommand(),
		a.downCommand(),
		a.sendCommand(),
		a.attachCommand(),
		a.screenCommand(),
		a.uiCommand(),
		a.tuiCommand(),
		a.pauseCommand(),
		a.resumeCommand(),
		a.runCommand(),
		a.mcpCommand(),
		a.exportCommand(),
	)
	a.addCompletions(root)
	return root
}

// checkTimeout refuses a --timeout of zero or less, for every command that
// has one: each is how long to wait before giving up, and one that gives
// up at once did nothing and said "context deadline exceeded".
func checkTimeout(cmd *cobra.Command) error {
	if !cmd.Flags().Changed("timeout") {
		return nil
	}
	if d, err := cmd.Flags().GetDuration("timeout"); err == nil && d <= 0 {
		return withCode(exitUsage, fmt.Errorf("--timeout must be positive (got %s)", d))
	}
	return nil
}
