package main

import (
	"github.com/spf13/cobra"

	"github.com/procsdev/procs/schema"
)

func (a *app) schemaCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of procs.yaml (for editors and validators)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := a.stdout.Write(schema.JSON())
			return err
		},
	}
}
