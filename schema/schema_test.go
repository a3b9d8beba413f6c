package schema_test

import (
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/procsdev/procs/schema"
	"github.com/procsdev/procs/schema/generate"
	"github.com/procsdev/procs/schema/schematest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite procs.schema.json from the Go types")

const schemaFile = "procs.schema.json"

// TestSchemaUpToDate fails when the schema procs serves (the committed
// file, embedded) differs from what the Go types generate;
// `go test ./schema -update` rewrites the file.
func TestSchemaUpToDate(t *testing.T) {
	generated, err := generate.Generate()
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile(schemaFile, generated, 0o644))
		return // the embedded copy is the file as it was when this test was built
	}
	assert.Equal(t, string(schema.JSON()), string(generated),
		"schema/procs.schema.json is stale: run `go test ./schema -update`")
}

func TestSchemaDescribesEveryField(t *testing.T) {
	generated, err := generate.Generate()
	require.NoError(t, err)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(generated, &doc))
	var walk func(path string, node any)
	walk = func(path string, node any) {
		m, ok := node.(map[string]any)
		if !ok {
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for name, prop := range props {
				p := prop.(map[string]any)
				_, hasDescription := p["description"]
				assert.True(t, hasDescription, "%s.%s has no description", path, name)
				walk(path+"."+name, p)
			}
		}
		if defs, ok := m["$defs"].(map[string]any); ok {
			for name, def := range defs {
				walk(name, def)
			}
		}
	}
	walk("procs.yaml", doc)
}

// TestConfigsMatchSchema validates every procs.yaml of the repository and of
// examples/ against the committed schema.
func TestConfigsMatchSchema(t *testing.T) {
	compiled := schematest.Compile(t, schemaFile)
	files := repoConfigs(t)
	require.NotEmpty(t, files, "the demo procs.yaml at least must exist")
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			doc := loadYAMLAsJSON(t, file)
			assert.NoError(t, compiled.Validate(doc))
		})
	}
}

func TestSchemaRejectsBadShapes(t *testing.T) {
	compiled := schematest.Compile(t, schemaFile)
	for name, text := range map[string]string{
		"unknown key":   "procs:\n  a:\n    command: x\n    readyPatern: [y]\n",
		"empty command": "procs:\n  a:\n    command: ''\n",
		"bad duration":  "procs:\n  a:\n    command: x\n    readyTimeout: '30'\n",
		"bad policy":    "procs:\n  a:\n    command: x\n    restart: sometimes\n",
		"bad condition": "procs:\n  a:\n    command: x\n    dependsOn: {b: done}\n",
	} {
		t.Run(name, func(t *testing.T) {
			doc := schematest.YAMLAsJSON(t, []byte(text))
			assert.Error(t, compiled.Validate(doc))
		})
	}
}

// repoConfigs lists procs.yaml files at the repository root and under examples/.
func repoConfigs(t *testing.T) []string {
	t.Helper()
	var files []string
	if _, err := os.Stat("../procs.yaml"); err == nil {
		files = append(files, "../procs.yaml")
	}
	err := filepath.WalkDir("../examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (d.Name() == "procs.yaml" || strings.HasSuffix(d.Name(), ".procs.yaml")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		require.NoError(t, err)
	}
	return files
}

func loadYAMLAsJSON(t *testing.T, file string) any {
	t.Helper()
	raw, err := os.ReadFile(file)
	require.NoError(t, err)
	return schematest.YAMLAsJSON(t, raw)
}
