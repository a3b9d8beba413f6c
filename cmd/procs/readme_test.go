package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/schema"
)

var updateReadme = flag.Bool("update", false, "rewrite the generated sections of README.md")

// readmePath is the project README, two folders up from cmd/procs.
const readmePath = "../../README.md"

// TestReadmeGeneratedSections checks that the parts of README.md generated
// from the schema descriptions, the presets and the commands are current;
// `go test ./cmd/procs -run Readme -update` rewrites them.
func TestReadmeGeneratedSections(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	require.NoError(t, err)
	sections := map[string]string{
		"reference": schemaReference(t),
		"presets":   presetTable(),
		"commands":  commandTable(newApp(nil, nil, nil, nil).rootCommand()),
	}
	got := string(data)
	want := got
	for name, body := range sections {
		want = replaceSection(t, want, name, body)
	}
	if *updateReadme {
		require.NoError(t, os.WriteFile(readmePath, []byte(want), 0o644))
		return
	}
	assert.Equal(t, want, got, "README.md is stale: run `go test ./cmd/procs -run Readme -update`")
}

// TestReadmeConfigsPassCheck loads every procs.yaml snippet of README.md
// (a yaml block with a procs: key) as procs check would.
func TestReadmeConfigsPassCheck(t *testing.T) {
	data, err := os.ReadFile(readmePath)
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	checked := 0
	for i, b := range blocks {
		if !strings.Contains(b[1], "\nprocs:") && !strings.HasPrefix(b[1], "procs:") {
			continue
		}
		checked++
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			dir := t.TempDir()
			// Snippets name folders and files of an imagined project: make them.
			for _, m := range regexp.MustCompile(`(?m)^\s+cwd: (\S+)`).FindAllStringSubmatch(b[1], -1) {
				require.NoError(t, os.MkdirAll(filepath.Join(dir, m[1]), 0o755))
			}
			for _, m := range regexp.MustCompile(`(?m)envFile: (\S+)`).FindAllStringSubmatch(b[1], -1) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, m[1]), nil, 0o644))
			}
			file := filepath.Join(dir, "procs.yaml")
			require.NoError(t, os.WriteFile(file, []byte(b[1]), 0o644))
			_, err := config.Load(config.LoadOptions{File: file, Environ: []string{}})
			require.NoError(t, err, "README snippet:\n%s", b[1])
		})
	}
	assert.GreaterOrEqual(t, checked, 3, "README shows procs.yaml snippets")
}

// replaceSection puts body between the markers of section name.
func replaceSection(t *testing.T, text, name, body string) string {
	t.Helper()
	begin := fmt.Sprintf("<!-- generated: %s (go test ./cmd/procs -run Readme -update) -->\n", name)
	end := "<!-- end of generated " + name + " -->"
	i := strings.Index(text, begin)
	j := strings.Index(text, end)
	require.True(t, i >= 0 && j > i, "README.md lacks the markers of section %s:\n%s...%s", name, begin, end)
	return text[:i+len(begin)] + body + text[j:]
}

// jsonSchema is the part of a JSON Schema the reference reads.
type jsonSchema struct {
	Ref                  string                 `json:"$ref"`
	Type                 string                 `json:"type"`
	Description          string                 `json:"description"`
	Enum                 []any                  `json:"enum"`
	Default              any                    `json:"default"`
	Pattern              string                 `json:"pattern"`
	Properties           map[string]*jsonSchema `json:"properties"`
	Items                *jsonSchema            `json:"items"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	OneOf                []*jsonSchema          `json:"oneOf"`
	AnyOf                []*jsonSchema          `json:"anyOf"`
	Defs                 map[string]*jsonSchema `json:"$defs"`
}

// schemaReference renders the keys of procs.yaml, in the order the Go types
// declare them, from the descriptions of the schema.
func schemaReference(t *testing.T) string {
	t.Helper()
	raw := schema.JSON() // what the Go types generate (schema's drift test)
	var root jsonSchema
	require.NoError(t, json.Unmarshal(raw, &root))
	order := keyOrder(t, raw)
	var b strings.Builder
	writeKeys(&b, "Top level", &root, order[""], "")
	writeKeys(&b, "Each process, under `procs.NAME`", root.Defs["Proc"], order["Proc"], "")
	for _, def := range []string{"Healthcheck", "Shutdown", "AutoRespond", "OnIdle"} {
		writeKeys(&b, "`"+lowerFirst(def)+"`", root.Defs[def], order[def], def)
	}
	writeKeys(&b, "`args` (each entry; a task's)", root.Defs["Arg"], order["Arg"], "Arg")
	writeKeys(&b, "`ui` (top level)", root.Defs["UIConfig"], order["UIConfig"], "UIConfig")
	writeKeys(&b, "`logs` (top level and per process)", root.Defs["Logs"], order["Logs"], "Logs")
	writeKeys(&b, "`resources` (top level and per process)", root.Defs["Resources"], order["Resources"], "Resources")
	return b.String()
}

// keyOrder returns, for the root ("") and each $defs entry, its property
// names in the order they appear in the schema text (the Go field order).
func keyOrder(t *testing.T, raw []byte) map[string][]string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	var doc map[string]json.RawMessage
	require.NoError(t, dec.Decode(&doc))
	order := map[string][]string{"": orderedKeys(t, doc["properties"])}
	var defs map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(doc["$defs"], &defs))
	for name, def := range defs {
		var d map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(def, &d))
		order[name] = orderedKeys(t, d["properties"])
	}
	return order
}

func orderedKeys(t *testing.T, obj json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(obj))
	_, err := dec.Token() // {
	require.NoError(t, err)
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		require.NoError(t, err)
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return keys
}

func writeKeys(b *strings.Builder, title string, s *jsonSchema, keys []string, skipSelf string) {
	fmt.Fprintf(b, "\n%s:\n\n| key | type | meaning |\n|---|---|---|\n", title)
	for _, key := range keys {
		if key == "$schema" {
			continue
		}
		p := s.Properties[key]
		desc := p.Description
		if p.Default != nil && !strings.Contains(desc, "default") {
			desc += fmt.Sprintf(" Default: `%v`.", p.Default)
		}
		fmt.Fprintf(b, "| `%s` | %s | %s |\n", key, typeOf(p), escapeCell(desc))
	}
}

// typeOf says in a few words what a schema accepts.
func typeOf(s *jsonSchema) string {
	switch {
	case s.Ref != "":
		return "object (below)"
	case len(s.OneOf) > 0 || len(s.AnyOf) > 0:
		var kinds []string
		for _, alt := range append(s.OneOf, s.AnyOf...) {
			if k := typeOf(alt); !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
		return strings.Join(kinds, " or ")
	case len(s.Enum) > 0:
		words := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			words[i] = fmt.Sprintf("`%v`", e)
		}
		return strings.Join(words, " \\| ")
	case s.Type == "string" && strings.Contains(s.Pattern, "ms|s|m|h"):
		return "duration"
	case s.Type == "string" && strings.Contains(s.Pattern, "[kKmMgG]"):
		return "size"
	case s.Type == "array" && s.Items != nil && s.Items.Ref != "":
		return "list of objects (below)"
	case s.Type == "array" && s.Items != nil:
		return "list of " + typeOf(s.Items) + "s"
	case s.Type == "object" && len(s.AdditionalProperties) > 0 && len(s.Properties) == 0:
		return "map"
	case s.Type == "object":
		return "object"
	case s.Type == "":
		return "value"
	}
	return s.Type
}

func escapeCell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// presetTable renders the built-in presets by category.
func presetTable() string {
	presets := frameworks.All()
	sort.SliceStable(presets, func(i, j int) bool { return presets[i].Category < presets[j].Category })
	var b strings.Builder
	b.WriteString("\n| preset | category | port | detected from | what |\n|---|---|---|---|---|\n")
	for _, p := range presets {
		port := ""
		if p.DefaultPort != 0 {
			port = strconv.Itoa(p.DefaultPort)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", p.Name, p.Category, port, escapeCell(detectedFrom(p.Detect)), escapeCell(p.Description))
	}
	return b.String()
}

// detectedFrom says briefly what makes procs pick a preset.
func detectedFrom(d frameworks.DetectSpec) string {
	var parts []string
	if len(d.PackageJSON) > 0 {
		parts = append(parts, "package.json: "+strings.Join(d.PackageJSON, ", "))
	}
	for _, group := range d.Files {
		parts = append(parts, strings.Join(group, " + "))
	}
	if len(d.Command) > 0 {
		parts = append(parts, "command line")
	}
	if len(parts) == 0 {
		return "`framework:` only"
	}
	return strings.Join(parts, "; ")
}

// commandTable renders every command with its usage and summary.
func commandTable(root *cobra.Command) string {
	var b strings.Builder
	b.WriteString("\n| command | what it does |\n|---|---|\n")
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		fmt.Fprintf(&b, "| `procs %s` | %s |\n", c.Use, escapeCell(c.Short))
	}
	b.WriteString("| `procs completion SHELL` | Print the shell completion script (bash, zsh, fish, powershell) |\n")
	return b.String()
}
