package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/internal/typo"
)

// unknownCommand is the root's argument check: an argument that names no
// command is an error suggesting the commands it is close to, by name as
// cobra does and also by alias, which cobra leaves out, so that "pss", a
// typo of ps (the name other tools use), suggests status.
func unknownCommand(root *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	typed := args[0]
	suggestions := root.SuggestionsFor(typed)
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() && closeToAlias(typed, c.Aliases) && !slices.Contains(suggestions, c.Name()) {
			suggestions = append(suggestions, c.Name())
		}
	}
	msg := fmt.Sprintf("unknown command %q for %q", typed, root.CommandPath())
	if len(suggestions) > 0 {
		msg += "\n\nDid you mean this?\n\t" + strings.Join(suggestions, "\n\t")
	}
	return withCode(exitUsage, fmt.Errorf("%s\n\nRun '%s --help' for usage", msg, root.CommandPath()))
}

// closeToAlias reports whether typed is one typo from an alias: short
// aliases allow no more, or every short word would match.
func closeToAlias(typed string, aliases []string) bool {
	for _, alias := range aliases {
		if typo.Distance(strings.ToLower(typed), alias) <= 1 {
			return true
		}
	}
	return false
}
