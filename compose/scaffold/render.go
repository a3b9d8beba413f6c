package scaffold

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/procsdev/procs/schema"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// header opens every generated file, after the schema comment.
const header = `#
# Written by procs init from what it found in this folder. Commands, ports and
# dependsOn are its best guesses: review them, then run procs check and procs up.
# A process's port is checked free before it starts and is exported to it as PORT.
`

// render writes the plan as a commented procs.yaml.
func (pl *plan) render(schemaRef string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# yaml-language-server: $schema=%s\n", schemaRef)
	b.WriteString(header)
	if pl.envFile {
		b.WriteString("\n# .env beside this file is loaded for every process, as foreman does.\nenvFile: .env\n")
	}
	b.WriteString("\nprocs:\n")
	for i, p := range pl.procs {
		if i > 0 {
			b.WriteByte('\n')
		}
		p.render(&b)
	}
	pl.renderUndecided(&b)
	if len(pl.skipped) > 0 {
		b.WriteString("\n# Found but not added:\n")
		for _, s := range pl.skipped {
			fmt.Fprintf(&b, "# - %s\n", s)
		}
	}
	return b.Bytes()
}

// render writes one process, with its comments above it.
func (p *process) render(b *bytes.Buffer) {
	r := p.run(p.port)
	comment := func(text string) { fmt.Fprintf(b, "  # %s\n", text) }
	comment("from " + p.source)
	switch {
	case p.task:
		comment("a one-shot step: completed when it exits 0; the processes that need it wait for that")
	case p.preset != nil:
		comment(fmt.Sprintf("detected: %s (%s)", p.preset.Name, p.reason))
	default:
		comment("no preset detected: it is ready once running; add readyPatterns or a port if it serves")
	}
	for _, n := range slices.Concat(r.notes, p.notes) {
		comment(n)
	}
	fmt.Fprintf(b, "  %s:\n", yamlString(p.name))
	fmt.Fprintf(b, "    command: %s\n", yamlString(r.command))
	if p.cwd != "" {
		fmt.Fprintf(b, "    cwd: %s\n", yamlString(p.cwd))
	}
	if p.task {
		b.WriteString("    kind: task\n")
	}
	if p.disabled {
		b.WriteString("    disabled: true\n")
	}
	if p.framework != "" {
		fmt.Fprintf(b, "    framework: %s\n", p.framework)
	}
	if p.port != 0 {
		fmt.Fprintf(b, "    port: %d  # %s\n", p.port, p.portNote)
	}
	if len(r.env) > 0 {
		b.WriteString("    env:\n")
		keys := make([]string, 0, len(r.env))
		for k := range r.env {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			fmt.Fprintf(b, "      %s: %s\n", yamlString(k), strconv.Quote(r.env[k]))
		}
	}
	if len(p.watch) > 0 {
		globs := make([]string, len(p.watch))
		for i, g := range p.watch {
			globs[i] = yamlString(g)
		}
		fmt.Fprintf(b, "    watch: [%s]  # go run does not reload: procs restarts it when these change\n", strings.Join(globs, ", "))
	}
	switch {
	case len(p.taskDeps) > 0:
		var deps []string
		for _, d := range p.dependsOn {
			deps = append(deps, yamlString(d)+": ready")
		}
		for _, d := range p.taskDeps {
			deps = append(deps, yamlString(d)+": completed")
		}
		fmt.Fprintf(b, "    dependsOn: {%s}\n", strings.Join(deps, ", "))
	case len(p.dependsOn) > 0:
		names := make([]string, len(p.dependsOn))
		for i, d := range p.dependsOn {
			names[i] = yamlString(d)
		}
		fmt.Fprintf(b, "    dependsOn: [%s]\n", strings.Join(names, ", "))
	}
}

// plainScalar matches text YAML reads back as the same string when written
// without quotes: no indicator first, no ": " or " #", nothing numeric.
var plainScalar = lazyregexp.New(`^([A-Za-z_/$]|\.\.?/)[A-Za-z0-9_./$()=+~,@ -]*$`)

// notStrings are the plain words YAML reads as something else.
var notStrings = []string{"true", "false", "yes", "no", "on", "off", "y", "n", "null"}

// yamlString writes s as a YAML scalar: plain when that reads back as the
// same string, else single-quoted, else (with control characters)
// double-quoted.
func yamlString(s string) string {
	if plainScalar.MatchString(s) && !strings.HasSuffix(s, " ") && !slices.Contains(notStrings, strings.ToLower(s)) {
		return s
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return strconv.Quote(s)
}

// schemaRef is where editors find the schema: the published one, or the
// file in the procs repository when the project is inside it.
func schemaRef(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		file := filepath.Join(d, "schema", "procs.schema.json")
		if exists(file) && isProcsModule(filepath.Join(d, "go.mod")) {
			if rel, err := filepath.Rel(dir, file); err == nil {
				if !strings.HasPrefix(rel, "..") {
					rel = "./" + rel
				}
				return filepath.ToSlash(rel)
			}
		}
		if filepath.Dir(d) == d {
			return schema.ID
		}
	}
}

// isProcsModule reports whether file is the go.mod of procs itself.
func isProcsModule(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if fields := strings.Fields(scanner.Text()); len(fields) == 2 && fields[0] == "module" {
			return fields[1] == "github.com/procsdev/procs"
		}
	}
	return false
}
