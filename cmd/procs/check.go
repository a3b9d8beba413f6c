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
			fmt.Fprintf(a.stdout, "%s: %d processes, OK\n", a.displayPath(cfg.File), len(cfg.Procs))
			return nil
		},
	}
}

// displayPath shows path relative to the working folder when it is inside it.
func (a *app) displayPath(path string) string {
	rel, err := filepath.Rel(a.workDir(), path)
	if err != nil || len(rel) >= 2 && rel[:2] == ".." {
		return path
	}
	return rel
}
