package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestEveryResultCommandTakesJSON: every command that prints a result
// takes --json (scripts and CI read them); the ones left out are
// interactive (attach, tui), a server (mcp), or print JSON already (schema).
func TestEveryResultCommandTakesJSON(t *testing.T) {
	interactive := map[string]bool{"attach": true, "tui": true, "mcp": true, "schema": true, "help": true, "completion": true}
	root := newApp(nil, io.Discard, io.Discard, nil).rootCommand()
	for _, cmd := range root.Commands() {
		if interactive[cmd.Name()] {
			continue
		}
		assert.NotNil(t, cmd.Flags().Lookup("json"), "procs %s has no --json", cmd.Name())
	}
}
