package main

import (
	"bytes"
	"io"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryResultCommandTakesJSON: every command that prints a result
// takes --json (scripts and CI read them), registered by addJSONFlag so it
// prints the one way README describes; the ones left out are interactive
// (attach, tui, top: status --json is its JSON), a server (mcp), or print
// JSON already (schema).
func TestEveryResultCommandTakesJSON(t *testing.T) {
	interactive := map[string]bool{"attach": true, "tui": true, "top": true, "mcp": true, "schema": true, "help": true, "completion": true}
	root := newApp(nil, io.Discard, io.Discard, nil).rootCommand()
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		flag := cmd.Flags().Lookup("json")
		shape, registered := cmd.Annotations[jsonAnnotation]
		if flag != nil {
			assert.True(t, registered, "procs %s registers --json itself, not through addJSONFlag", cmd.CommandPath())
		}
		if cmd != root && !interactive[cmd.Name()] {
			assert.NotNil(t, flag, "procs %s has no --json", cmd.CommandPath())
			assert.Contains(t, []string{string(jsonOnce), string(jsonLines)}, shape, "procs %s has no JSON shape", cmd.CommandPath())
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

func TestJSONOutputShapes(t *testing.T) {
	var out bytes.Buffer
	a := newApp(nil, &out, io.Discard, nil)
	once := a.addJSONFlag(&cobra.Command{Use: "once"}, jsonOnce, "")
	require.NoError(t, once.print(map[string]any{"a": "<b>", "list": []int{1, 2}}))
	assert.Equal(t, `{"a":"<b>","list":[1,2]}`+"\n", out.String(), "one compact line, nothing escaped")
	assert.Error(t, once.print(1), "a command that answers once prints one value")

	out.Reset()
	lines := a.addJSONFlag(&cobra.Command{Use: "lines"}, jsonLines, "")
	require.NoError(t, lines.print(map[string]int{"n": 1}))
	require.NoError(t, lines.print(map[string]int{"n": 2}))
	assert.Equal(t, "{\"n\":1}\n{\"n\":2}\n", out.String(), "one object per line")

	var off *jsonOutput
	assert.False(t, off.on())
}
