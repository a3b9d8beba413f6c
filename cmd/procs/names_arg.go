package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// needsNames is the Args check of a command that takes one process name or
// more: with none it says what to pass, where cobra's own message ("requires
// at least 1 arg(s), only received 0") says neither what nor how. usage is
// the command line to show, such as "procs wait NAME... [--for ready]".
func needsNames(usage string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return withCode(exitUsage, fmt.Errorf("%s needs a process name: %s", cmd.Name(), usage))
		}
		return nil
	}
}
