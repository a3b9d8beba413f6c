// Package schematest checks procs.yaml text against the JSON Schema in
// tests: the schema package's own and those of code that writes procs.yaml.
package schematest

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// Compile compiles the JSON Schema in file (schema/procs.schema.json),
// under the $id it declares.
func Compile(t testing.TB, file string) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err)
	id, _ := doc.(map[string]any)["$id"].(string)
	require.NotEmpty(t, id, "%s declares no $id", file)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource(id, doc))
	compiled, err := c.Compile(id)
	require.NoError(t, err)
	return compiled
}

// YAMLAsJSON converts YAML text to the JSON value model the validator
// expects.
func YAMLAsJSON(t testing.TB, text []byte) any {
	t.Helper()
	var v any
	require.NoError(t, yaml.Unmarshal(text, &v))
	asJSON, err := json.Marshal(v)
	require.NoError(t, err)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(asJSON))
	require.NoError(t, err)
	return doc
}
