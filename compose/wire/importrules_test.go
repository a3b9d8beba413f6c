package wire

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/procsdev/procs/"

// The procs packages below the engine: pure rules and presets, and the
// platform layer they stand on.
var core = []string{"rules", "rules/agentstream", "builtin-frameworks", "internal/lazyregexp", "internal/regexfilter", "internal/typo", "internal/osproc"}

// api is what a client of the API may link: the core, the config, the wire
// types, the event bus and the control plane, and nothing of the engine.
var api = join(core, "compose/config", "compose/wire", "compose/bus", "internal/statedir", "internal/connguard", "compose/control")

// importRules are the import rules of ARCHITECTURE.md §1. Each package may
// depend (directly or not) on the procs packages in only, and on no other;
// the engine itself must not depend on those in never. Anything the engine
// alone uses — the engine, process containment — is in no only list, so a
// client that links it fails here, whatever that package is called.
var importRules = []struct {
	pkg   string
	only  []string
	never []string
}{
	{pkg: "compose/config", only: core},
	{pkg: "compose/wire", only: join(core, "compose/config")},
	{pkg: "compose/bus", only: join(core, "compose/config", "compose/wire")},
	{pkg: "compose/control", only: api},
	{pkg: "compose/tui", only: api},
	{pkg: "compose/mcp", only: api},
	{pkg: "compose/webui", only: api},
	{pkg: "compose/scaffold", only: join(core, "compose/config", "schema")},
	{pkg: "compose/lifecycle", only: join(core, "compose/config")},
	{pkg: "compose/contain", only: core},
	{pkg: "compose/export", only: join(core, "compose/config")},
	{pkg: "compose/export/systemd", only: join(core, "compose/config", "compose/export")},
	{pkg: "compose/export/dockercompose", only: join(core, "compose/config", "compose/export")},
	{pkg: "compose/export/kube", only: join(core, "compose/config", "compose/export")},
	{pkg: "compose", never: []string{"compose/control", "compose/tui", "compose/mcp", "compose/webui", "compose/scaffold"}},
}

// platforms are those README's "Platforms" names: a file built for one of
// them alone may import what the others do not.
var platforms = []string{"linux", "darwin", "freebsd", "windows"}

// TestImportRules keeps the clients of the API off the engine: they reach
// procs through compose/control and these leaf packages alone, so they link
// none of the engine, and compose/config can be loaded and diffed by any of
// them. It reads the dependencies go list gives (as go list -deps does),
// on every platform procs builds for.
func TestImportRules(t *testing.T) {
	var pkgs []string
	for _, rule := range importRules {
		pkgs = append(pkgs, module+rule.pkg)
	}
	for _, goos := range platforms {
		deps := listDeps(t, goos, pkgs)
		for _, rule := range importRules {
			for _, dep := range deps[module+rule.pkg] {
				name, ok := strings.CutPrefix(dep, module)
				if !ok {
					continue // the standard library or a module of others
				}
				if rule.only != nil && name == "compose" {
					t.Errorf("%s links the engine (GOOS=%s): it may reach procs only through %v", rule.pkg, goos, rule.only)
					continue
				}
				if rule.only != nil {
					assert.True(t, slices.Contains(rule.only, name),
						"%s depends on %s (GOOS=%s), which is not among the packages it may link: %v; "+
							"if %s holds nothing of the engine, add it to importRules and ARCHITECTURE.md §1",
						rule.pkg, name, goos, rule.only, name)
				}
				assert.False(t, slices.Contains(rule.never, name), "%s depends on %s (GOOS=%s)", rule.pkg, name, goos)
			}
		}
	}
}

// listDeps returns the dependencies, direct or not, of each of pkgs as built
// for goos.
func listDeps(t *testing.T, goos string, pkgs []string) map[string][]string {
	t.Helper()
	args := append([]string{"list", "-f", `{{.ImportPath}} {{join .Deps " "}}`}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Fatalf("go list for GOOS=%s: %v\n%s", goos, err, exit.Stderr)
	}
	require.NoError(t, err)
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) > 0 {
			deps[fields[0]] = fields[1:]
		}
	}
	require.Len(t, deps, len(pkgs), "go list answers for each package")
	return deps
}

// join returns a new list of base's names and more's.
func join(base []string, more ...string) []string {
	return append(slices.Clip(base), more...)
}
