// Package generate makes the JSON Schema of procs.yaml from the Go config
// types, so the schema cannot drift from what procs accepts. Only the tests
// of package schema run it (`go test ./schema -update` writes the schema
// file); procs itself serves the file it embeds, and so does not link the
// generator, nor the Go source parser and the YAML library it brings.
//
// It imports compose/config and schema alone.
package generate

import (
	"encoding/json"
	"reflect"

	"github.com/invopop/jsonschema"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/schema"
)

// durationPattern matches Go durations such as 300ms, 1.5s or 1h2m.
const durationPattern = `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$|^0$`

// byteSizePattern matches sizes such as 64MiB, 500MB, 1.5GiB or 65536.
const byteSizePattern = `^\s*[0-9]+(\.[0-9]+)?\s*([kKmMgG]([iI]?[bB])?|[bB])?\s*$`

// Generate returns the JSON Schema of procs.yaml, indented, with a final newline.
func Generate() ([]byte, error) {
	r := &jsonschema.Reflector{
		Anonymous:      true,
		ExpandedStruct: true,
		Mapper:         mapType,
	}
	s := r.Reflect(&config.Config{})
	s.ID = schema.ID
	// x- keys are extension fields, ignored by procs, as in the Compose
	// specification: a place for YAML anchors of shared settings.
	extensions := map[string]*jsonschema.Schema{"^x-": {Description: "An extension field, ignored by procs: a place for YAML anchors."}}
	s.PatternProperties = extensions
	if proc, ok := s.Definitions["Proc"]; ok {
		proc.PatternProperties = extensions
	}
	s.Title = "procs.yaml"
	s.Description = "Configuration of procs, the local process composer: processes, their dependencies and how to tell that each is ready."
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// mapType gives the schema of the config types that accept several shapes.
func mapType(t reflect.Type) *jsonschema.Schema {
	switch t {
	case reflect.TypeFor[config.Duration]():
		return durationSchema("A duration in Go syntax, e.g. 300ms, 1.5s, 2m.")
	case reflect.TypeFor[config.ByteSize]():
		return &jsonschema.Schema{OneOf: []*jsonschema.Schema{
			{Type: "string", Pattern: byteSizePattern, Description: "A size with a unit: KiB, MiB, GiB (or K, M, G: powers of 1024), kB, MB, GB (powers of 1000), e.g. 64MiB."},
			{Type: "integer", Minimum: "0", Description: "A number of bytes."},
		}}
	case reflect.TypeFor[map[string]string]():
		return envSchema()
	case reflect.TypeFor[config.Command]():
		return commandSchema()
	case reflect.TypeFor[config.Dependencies]():
		return dependenciesSchema()
	case reflect.TypeFor[config.RestartPolicy]():
		return restartSchema()
	case reflect.TypeFor[config.PTY]():
		return ptySchema()
	case reflect.TypeFor[config.Watch]():
		return watchSchema()
	case reflect.TypeFor[config.BackoffRange]():
		return &jsonschema.Schema{
			Type:        "string",
			Pattern:     `^[0-9.]+[a-zµ]+(\.\.[0-9.]+[a-zµ]+)?$`,
			Description: "Restart delay: min..max (e.g. 500ms..30s), doubling after each restart; a single duration is the minimum.",
		}
	}
	return nil
}

func durationSchema(description string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: durationPattern, Description: description}
}

func commandSchema() *jsonschema.Schema {
	minOne := uint64(1)
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			{Type: "string", MinLength: &minOne, Description: "A command line run with sh -c."},
			{Type: "array", MinItems: &minOne, Items: &jsonschema.Schema{Type: "string"}, Description: "An argv list run without a shell."},
		},
	}
}

func conditionSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type:        "string",
		Enum:        []any{"started", "ready", "completed"},
		Description: "started: the process is running; ready: it is ready; completed: the task exited 0.",
	}
}

func dependenciesSchema() *jsonschema.Schema {
	props := jsonschema.NewProperties()
	props.Set("condition", conditionSchema())
	props.Set("restart", &jsonschema.Schema{Type: "boolean", Description: "Restart this process whenever the dependency restarts."})
	object := &jsonschema.Schema{Type: "object", Properties: props, AdditionalProperties: jsonschema.FalseSchema}
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			{Type: "array", Items: &jsonschema.Schema{Type: "string"}, Description: "Names of processes that must be ready first."},
			{
				Type:                 "object",
				AdditionalProperties: &jsonschema.Schema{OneOf: []*jsonschema.Schema{conditionSchema(), object}},
				Description:          "Process name → condition word or {condition, restart}.",
			},
		},
	}
}

func restartSchema() *jsonschema.Schema {
	policy := &jsonschema.Schema{
		Type:        "string",
		Enum:        []any{"no", "on-failure", "always"},
		Description: "no: never restart; on-failure: restart after a crash or failure; always: restart whenever it ends.",
	}
	props := jsonschema.NewProperties()
	props.Set("policy", policy)
	props.Set("maxRestarts", &jsonschema.Schema{Type: "integer", Minimum: "0", Description: "Give up after this many consecutive restarts (0 means no limit)."})
	props.Set("backoff", mapType(reflect.TypeFor[config.BackoffRange]()))
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			policy,
			{Type: "object", Properties: props, AdditionalProperties: jsonschema.FalseSchema},
		},
	}
}

// envSchema accepts scalar values: YAML users write PORT: 8080 as often as "8080".
func envSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Type: "object",
		AdditionalProperties: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{
			{Type: "string"}, {Type: "number"}, {Type: "boolean"},
		}},
	}
}

// ptySchema accepts true/false or a window size, which turns the PTY on.
func ptySchema() *jsonschema.Schema {
	side := func(what string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "integer", Minimum: "1", Maximum: "1000", Description: what}
	}
	props := jsonschema.NewProperties()
	props.Set("cols", side("Window width in columns (default 120)."))
	props.Set("rows", side("Window height in rows (default 40)."))
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			{Type: "boolean", Description: "Run in a pseudo-terminal of 120x40."},
			{Type: "object", Properties: props, AdditionalProperties: jsonschema.FalseSchema, Description: "Run in a pseudo-terminal of this size."},
		},
	}
}

// watchSchema accepts a list of paths or {paths, ignore, debounce}.
func watchSchema() *jsonschema.Schema {
	minOne := uint64(1)
	globs := func(what string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", MinItems: &minOne, Items: &jsonschema.Schema{Type: "string"}, Description: what}
	}
	props := jsonschema.NewProperties()
	props.Set("paths", globs("Files, folders or globs (** for any folders) relative to procs.yaml."))
	props.Set("ignore", globs("Globs of paths not to react to, beside .git, node_modules, .procs and __pycache__."))
	props.Set("debounce", durationSchema("How long changes must pause before the restart (default 300ms)."))
	return &jsonschema.Schema{
		OneOf: []*jsonschema.Schema{
			globs("Files, folders or globs to watch, relative to procs.yaml."),
			{Type: "object", Properties: props, Required: []string{"paths"}, AdditionalProperties: jsonschema.FalseSchema},
		},
	}
}
