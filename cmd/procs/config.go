package main

import (
	"encoding/json"
	"fmt"

	"github.com/goccy/go-yaml"
	"github.com/spf13/cobra"
)

func (a *app) configCommand() *cobra.Command {
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print the resolved config: procs.yaml, procs.override.yaml, PROCS_* variables and --set, merged",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			if jsonOut.on() {
				return jsonOut.print(cfg)
			}
			out, err := json.MarshalIndent(cfg, "", "  ")
			if err != nil {
				return withCode(exitFailure, fmt.Errorf("encode config: %w", err))
			}
			if out, err = yaml.JSONToYAML(out); err != nil {
				return withCode(exitFailure, fmt.Errorf("encode config: %w", err))
			}
			fmt.Fprint(a.stdout, string(out))
			return nil
		},
	}
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print JSON instead of YAML")
	return cmd
}
