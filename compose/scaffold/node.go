package scaffold

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
)

// nodeScripts are the package.json scripts that start a dev server, in
// the order init prefers them.
var nodeScripts = []string{"dev", "start", "serve"}

// nodeApp runs the dev (or start, or serve) script of package.json in rel
// with the project's package manager, on the port its script names or the
// detected preset's default.
func (pl *plan) nodeApp(rel string) *process {
	pkg, ok := frameworks.ReadPackageJSON(pl.abs(rel))
	if !ok {
		return nil
	}
	i := slices.IndexFunc(nodeScripts, func(s string) bool { return strings.TrimSpace(pkg.Scripts[s]) != "" })
	if i < 0 {
		return nil
	}
	return pl.nodeScript(rel, pkg, nodeScripts[i])
}

// storybookApp runs the package.json "storybook" script of rel when it
// starts Storybook's dev server ("storybook": "storybook dev -p 6006", as
// storybook init writes it): a component library has no other, and an
// app's dev server does not serve it. Nothing waits for it.
func (pl *plan) storybookApp(rel string) *process {
	pkg, ok := frameworks.ReadPackageJSON(pl.abs(rel))
	if !ok || strings.TrimSpace(pkg.Scripts["storybook"]) == "" {
		return nil
	}
	p := pl.nodeScript(rel, pkg, "storybook")
	if p.preset == nil || p.preset.Name != "storybook" {
		return nil
	}
	p.name, p.optional = "storybook", true
	p.notes = append(p.notes, "Storybook: nothing waits for it; delete it if you do not run it with the app")
	return p
}

// nodeScript runs the package.json script of rel with the project's
// package manager: a server on the port its script names or its preset's
// default, a build as a task, a build watcher as a process needing nothing.
func (pl *plan) nodeScript(rel string, pkg *frameworks.PackageJSON, script string) *process {
	manager := pl.packageManager(rel, pkg)
	base := runScript(manager, script)
	p := &process{
		run:    func(int) runs { return runs{command: base} },
		cwd:    rel,
		source: fmt.Sprintf("%s script %q", path.Join(rel, "package.json"), script),
		kind:   "node",
		script: pkg.Scripts[script],
		pkg:    pkg,
	}
	pl.detect(p)
	switch {
	case isOneShotBuild(p.script):
		// It builds and exits: the packages using it wait for it.
		p.kind, p.task, p.tier = "build", true, tierBackEnd
		return p
	case isBuildWatch(p.script):
		p.kind = "build" // a watcher: it serves nothing and needs no database
		return p
	}
	if port := scriptPort(pkg.Scripts[script]); port != 0 {
		p.port, p.portNote, p.portFixed = port, fmt.Sprintf("in the %s script", script), true
		return p
	}
	if p.preset == nil || p.preset.DefaultPort == 0 {
		return p
	}
	preset := p.preset
	p.port, p.portNote, p.ownPort = preset.DefaultPort, preset.Name+"'s default", preset.DefaultPort
	switch {
	case preset.PortEnv == "PORT":
		p.movable = true // procs exports the port as PORT
	case preset.PortFlag != "":
		p.movable = true
		p.run = func(port int) runs {
			if port == p.ownPort {
				return runs{command: base}
			}
			return runs{command: fmt.Sprintf("%s%s %s %d", base, passArgs(manager), preset.PortFlag, port)}
		}
	}
	return p
}

// runScript is the command that runs a package.json script.
func runScript(manager, script string) string {
	switch {
	case manager == "npm" && script == "start":
		return "npm start"
	case manager == "npm" || manager == "bun":
		return manager + " run " + script
	}
	return manager + " " + script
}

// passArgs is what separates a script's own arguments: npm needs --.
func passArgs(manager string) string {
	if manager == "npm" {
		return " --"
	}
	return ""
}

// packageManager is the package manager of the app in rel: the one its
// package.json or the project's names, else the one whose lock file is
// there, else npm.
func (pl *plan) packageManager(rel string, pkg *frameworks.PackageJSON) string {
	root, _ := frameworks.ReadPackageJSON(pl.dir)
	for _, p := range []*frameworks.PackageJSON{pkg, root} {
		if p != nil && p.PackageManager != "" {
			name, _, _ := strings.Cut(p.PackageManager, "@")
			return name
		}
	}
	for _, dir := range []string{rel, ""} {
		if manager, ok := frameworks.LockfileManager(pl.abs(dir)); ok {
			return manager
		}
	}
	return "npm"
}

// scriptPort is the port a script sets itself: --port 3000, --port=3000,
// -p 3000 or PORT=3000; 0 when it sets none.
func scriptPort(script string) int {
	words := strings.Fields(script)
	for i, w := range words {
		value := ""
		switch {
		case (w == "--port" || w == "-p") && i+1 < len(words):
			value = words[i+1]
		case strings.HasPrefix(w, "--port="):
			value = strings.TrimPrefix(w, "--port=")
		case strings.HasPrefix(w, "PORT="):
			value = strings.TrimPrefix(w, "PORT=")
		default:
			continue
		}
		if n, err := strconv.Atoi(value); err == nil && n > 0 && n <= 65535 {
			return n
		}
	}
	return 0
}

// hasWorkspaces reports whether the project's package.json or
// pnpm-workspace.yaml declares workspaces.
func (pl *plan) hasWorkspaces() bool { return len(pl.workspacePatterns()) > 0 }

// workspacePatterns are the workspace globs of package.json ("workspaces":
// [...] or {"packages": [...]}) and pnpm-workspace.yaml.
func (pl *plan) workspacePatterns() []string {
	var patterns []string
	if pkg, ok := frameworks.ReadPackageJSON(pl.dir); ok && len(pkg.Workspaces) > 0 {
		var list []string
		var obj struct {
			Packages []string `json:"packages"`
		}
		if json.Unmarshal(pkg.Workspaces, &list) == nil {
			patterns = append(patterns, list...)
		} else if json.Unmarshal(pkg.Workspaces, &obj) == nil {
			patterns = append(patterns, obj.Packages...)
		}
	}
	if data, err := os.ReadFile(filepath.Join(pl.dir, "pnpm-workspace.yaml")); err == nil {
		var ws struct {
			Packages []string `yaml:"packages"`
		}
		if yaml.Unmarshal(data, &ws) == nil {
			patterns = append(patterns, ws.Packages...)
		}
	}
	return patterns
}

// workspaceDirs expands the workspace patterns one level: "apps/*" is each
// folder in apps/, "web" is web/. Exclusions (!pattern) are left out.
func (pl *plan) workspaceDirs() []string {
	var dirs []string
	for _, pattern := range pl.workspacePatterns() {
		pattern = strings.TrimSuffix(strings.TrimPrefix(path.Clean(pattern), "./"), "/**")
		if strings.HasPrefix(pattern, "!") || strings.HasPrefix(pattern, "..") || pattern == "." {
			continue
		}
		parent, last := path.Split(pattern)
		if !strings.ContainsAny(last, "*?[") {
			dirs = append(dirs, pattern)
			continue
		}
		entries, err := os.ReadDir(pl.abs(parent))
		if err != nil {
			continue
		}
		for _, e := range entries {
			if ok, _ := path.Match(last, e.Name()); ok && e.IsDir() && e.Name() != "node_modules" {
				dirs = append(dirs, path.Join(parent, e.Name()))
			}
		}
	}
	var out []string
	for _, d := range dirs {
		if !slices.Contains(out, d) && exists(pl.abs(d), "package.json") {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}
