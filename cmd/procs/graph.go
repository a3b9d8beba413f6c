package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func (a *app) graphCommand() *cobra.Command {
	var (
		format  string
		jsonOut *jsonOutput
	)
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Print the dependency graph of procs.yaml (text, Mermaid or Graphviz dot)",
		Long: `Print the dependency graph of procs.yaml; no procs needs to be running.

The text format lists the processes in start order, each followed by the
processes that wait for it and for what (started, ready, completed).
--format mermaid prints a Mermaid flowchart (paste it in a Markdown
` + "```mermaid" + ` block), --format dot a Graphviz digraph (dot -Tsvg).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			if jsonOut.on() {
				graph, err := newDependencyGraph(cfg)
				if err != nil {
					return err
				}
				return jsonOut.print(graph)
			}
			out, err := renderGraph(cfg, format)
			if err != nil {
				return withCode(exitUsage, err)
			}
			fmt.Fprint(a.stdout, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "the output format: "+strings.Join(graphFormats, ", "))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(graphFormats, cobra.ShellCompDirectiveNoFileComp))
	jsonOut = a.addJSONFlag(cmd, jsonOnce, `print {"processes": [names in start order], "edges": [{from, to, condition}]}`)
	return cmd
}
