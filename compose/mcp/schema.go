package mcp

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema infers the input schema of In from its fields and their
// jsonschema tags, and records defaults: the SDK fills omitted arguments
// with them, and the model reads them.
func inputSchema[In any](defaults map[string]any) *jsonschema.Schema {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("infer input schema: %v", err)) // the types are static: a bug
	}
	// Every integer an input takes is a count (lines): a negative one
	// is refused with the schema's words rather than read as a default.
	for _, prop := range schema.Properties {
		if prop.Type == "integer" {
			prop.Minimum = new(float64)
		}
	}
	for name, value := range defaults {
		prop, ok := schema.Properties[name]
		if !ok {
			panic(fmt.Sprintf("default for unknown argument %q", name))
		}
		data, err := json.Marshal(value)
		if err != nil {
			panic(fmt.Sprintf("encode default of %q: %v", name, err))
		}
		prop.Default = data
	}
	return schema
}

// parseTimeout reads a duration argument such as "30s", giving def when
// it is empty.
func parseTimeout(argument, value string, def time.Duration) (time.Duration, error) {
	if value == "" {
		return def, nil
	}
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		return 0, failf(fmt.Sprintf("call again with %s as a duration such as 30s or 2m.", argument),
			"%s=%q is not a positive duration.", argument, value)
	}
	return d, nil
}
