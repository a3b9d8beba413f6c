package frameworks

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// PackageJSON is the part of a package.json that detection and `procs
// init` read.
type PackageJSON struct {
	// Name is the package's name, which other workspace packages depend on.
	Name string `json:"name"`
	// Main is the package's entry file.
	Main            string            `json:"main"`
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
	// Workspaces is "workspaces": a list of globs, or {"packages": [...]}.
	Workspaces json.RawMessage `json:"workspaces"`
	// PackageManager is "packageManager", e.g. "pnpm@9.1.0".
	PackageManager string `json:"packageManager"`
}

// packageJSON is the name the detection code knew PackageJSON by.
type packageJSON = PackageJSON

// ReadPackageJSON reads dir/package.json; false when there is none or it
// is not valid JSON.
func ReadPackageJSON(dir string) (*PackageJSON, bool) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, false
	}
	var pkg PackageJSON
	if err := json.Unmarshal(data, &pkg); err != nil {
		return nil, false
	}
	return &pkg, true
}

// readPackageJSON is ReadPackageJSON under the name refine.go calls.
var readPackageJSON = ReadPackageJSON

// lockFiles name the package manager a lock file belongs to, the first
// found winning.
var lockFiles = []struct{ file, manager string }{
	{"pnpm-lock.yaml", "pnpm"}, {"yarn.lock", "yarn"}, {"bun.lock", "bun"}, {"bun.lockb", "bun"}, {"package-lock.json", "npm"},
}

// LockfileManager names the JavaScript package manager whose lock file is
// in dir (pnpm, yarn, bun or npm); false when there is none.
func LockfileManager(dir string) (string, bool) {
	for _, l := range lockFiles {
		if _, err := os.Stat(filepath.Join(dir, l.file)); err == nil {
			return l.manager, true
		}
	}
	return "", false
}

// matchPackageJSON resolves package-manager commands through package.json:
// a script runs its own command, `npx X` runs X, and a node or
// package-manager command that names no preset falls back to the
// dependencies.
func (c *catalog) matchPackageJSON(words []string, dir string, depth int) (Detection, bool) {
	if exec, ok := execTarget(words); ok {
		if d, ok := c.detect(strings.Join(exec, " "), dir, depth+1); ok && depth < maxScriptDepth {
			return d, true
		}
	}
	pkg, ok := ReadPackageJSON(dir)
	if !ok {
		return Detection{}, false
	}
	script, isRun := scriptName(words, pkg)
	if isRun && depth < maxScriptDepth {
		if body, ok := pkg.Scripts[script]; ok {
			if d, ok := c.detect(body, dir, depth+1); ok {
				if !strings.HasPrefix(d.Reason, "package.json") {
					d.Reason = fmt.Sprintf("package.json script %q runs %q", script, body)
				}
				return d, true
			}
		}
	}
	if !isRun && !isNodeRuntime(words[0]) {
		return Detection{}, false
	}
	return c.matchDependencies(pkg, !isRun)
}

// matchDependencies finds the first preset (by name) whose detect.packageJson
// names a dependency, preferring non-fallback presets; loadedOnly keeps to
// the presets of libraries a node program loads (detect.loaded).
func (c *catalog) matchDependencies(pkg *packageJSON, loadedOnly bool) (Detection, bool) {
	for _, fallback := range []bool{false, true} {
		for _, p := range c.sorted {
			if p.Detect.Fallback != fallback || loadedOnly && !p.Detect.Loaded {
				continue
			}
			for _, dep := range p.Detect.PackageJSON {
				_, inDeps := pkg.Dependencies[dep]
				_, inDev := pkg.DevDependencies[dep]
				if inDeps || inDev {
					return Detection{Preset: p, Reason: fmt.Sprintf("package.json depends on %q", dep)}, true
				}
			}
		}
	}
	return Detection{}, false
}

// runsScript reports whether words run a package.json script (or install,
// or another package-manager command), rather than name a program:
// npm and yarn and pnpm always do, bun unless it runs a file.
func runsScript(words []string) bool {
	switch filepath.Base(words[0]) {
	case "npm", "yarn", "pnpm":
		_, isExec := execTarget(words)
		return !isExec
	case "bun":
		args := skipFlags(words[1:])
		if nth(args, 0) == "run" {
			args = skipFlags(args[1:])
		}
		target := nth(args, 0)
		return target != "" && !strings.Contains(target, ".")
	}
	return false
}

func isNodeRuntime(w string) bool {
	switch filepath.Base(w) {
	case "node", "nodemon", "tsx", "ts-node":
		return true
	}
	return false
}

// execTarget returns the command that `npx X`, `bunx X`, `pnpm dlx X`,
// `pnpm exec X`, `yarn dlx X`, `yarn exec X` or `npm exec X` runs.
func execTarget(words []string) ([]string, bool) {
	prog := filepath.Base(words[0])
	rest := words[1:]
	switch prog {
	case "npx", "bunx":
	case "pnpm", "yarn", "npm":
		if len(rest) == 0 || !slices.Contains([]string{"dlx", "exec"}, rest[0]) {
			return nil, false
		}
		rest = rest[1:]
	default:
		return nil, false
	}
	rest = skipFlags(rest)
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	return rest, len(rest) > 0
}

// scriptName returns the package.json script a package-manager command
// runs, and whether words are such a command at all.
func scriptName(words []string, pkg *packageJSON) (string, bool) {
	prog := filepath.Base(words[0])
	args := skipFlags(words[1:])
	first := ""
	if len(args) > 0 {
		first = args[0]
	}
	switch prog {
	case "npm":
		switch first {
		case "run", "run-script", "rum", "urn":
			return nth(args, 1), len(args) > 1
		case "start", "test", "restart", "stop":
			return first, true
		}
	case "yarn", "pnpm":
		if first == "run" {
			return nth(args, 1), len(args) > 1
		}
		if first != "" && (prog == "yarn" || pkg.Scripts[first] != "") {
			return first, true
		}
	case "bun":
		if first == "run" {
			args = skipFlags(args[1:])
			first = nth(args, 0)
		}
		// `bun run file.ts` runs a file, not a script.
		if _, ok := pkg.Scripts[first]; ok {
			return first, true
		}
	}
	return "", false
}

func nth(words []string, i int) string {
	if i < len(words) {
		return words[i]
	}
	return ""
}

// skipFlags drops leading flags (and the value of --prefix and friends).
func skipFlags(words []string) []string {
	for len(words) > 0 && strings.HasPrefix(words[0], "-") && words[0] != "--" {
		switch words[0] {
		case "--prefix", "-C", "--dir", "--cwd", "--filter", "-F", "--package", "-p":
			if len(words) > 1 {
				words = words[1:]
			}
		}
		words = words[1:]
	}
	return words
}

// ScriptBody returns the text of the package.json script (in dir) that a
// package-manager command runs (`npm run dev`, `pnpm dev`), and whether
// the command runs one.
func ScriptBody(command, dir string) (string, bool) {
	words := shellWords(command)
	if len(words) == 0 || !runsScript(words) {
		return "", false
	}
	pkg, ok := ReadPackageJSON(dir)
	if !ok {
		return "", false
	}
	script, isRun := scriptName(words, pkg)
	body, ok := pkg.Scripts[script]
	return body, isRun && ok
}
