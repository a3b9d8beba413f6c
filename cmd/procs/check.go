package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"
)

func (a *app) checkCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Validate procs.yaml and report every problem with file:line:col",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			for _, w := range cfg.Warnings {
				fmt.Fprintf(a.stderr, "warning: %s\n", w.Error())
			}
			fmt.Fprintf(a.stdout, "%s: %s, OK\n", a.displayPath(cfg.File), plural(len(cfg.Procs), "process", "processes"))
			return nil
		},
	}
}

// plural says "1 process" or "2 processes".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// displayPath shows path relative to the working folder when it is inside it.
func (a *app) displayPath(path string) string {
	rel, err := filepath.Rel(a.workDir(), path)
	if err != nil || len(rel) >= 2 && rel[:2] == ".." {
		return path
	}
	return rel
}
