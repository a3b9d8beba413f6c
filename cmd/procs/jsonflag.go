package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
)

// jsonShape is how a command lays out its --json output. Either way stdout
// holds compact JSON, one value per line, and nothing else.
type jsonShape string

const (
	// jsonOnce is a command that answers once: exactly one line, one
	// object (or one array, for a list).
	jsonOnce jsonShape = "once"
	// jsonLines is a command that reports item by item as each is known (a
	// result per process, an output line, an event): JSON lines, one object
	// per line, never gathered into an array.
	jsonLines jsonShape = "lines"
)

// jsonAnnotation marks, on a command, that addJSONFlag registered its
// --json, with the shape as its value.
const jsonAnnotation = "procs-json-shape"

// jsonOutput is a command's --json flag and the one writer of its JSON.
type jsonOutput struct {
	app     *app
	shape   jsonShape
	enabled bool
	printed bool
}

// addJSONFlag registers cmd's --json flag with usage, and marks cmd with
// its shape. Every command that prints JSON goes through it, as cli/cli's
// AddJSONFlags, so they all print the same way.
func (a *app) addJSONFlag(cmd *cobra.Command, shape jsonShape, usage string) *jsonOutput {
	out := &jsonOutput{app: a, shape: shape}
	cmd.Flags().BoolVar(&out.enabled, "json", false, usage)
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[jsonAnnotation] = string(shape)
	return out
}

// on reports whether --json was given. A nil jsonOutput is off.
func (out *jsonOutput) on() bool { return out != nil && out.enabled }

// print writes v as one line of compact JSON on stdout. A jsonOnce command
// prints once: a second value is refused.
func (out *jsonOutput) print(v any) error {
	if out.shape == jsonOnce && out.printed {
		return fmt.Errorf("--json of a command that answers once printed a second value (%T)", v)
	}
	out.printed = true
	enc := json.NewEncoder(out.app.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
