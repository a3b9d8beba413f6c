package compose

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/internal/lazyregexp"
	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// missingCommand finds the program a shell could not find in its error
// line: sh's "sh: 1: vite: not found", bash's "bash: line 1: vite: command
// not found", zsh's "zsh: command not found: vite".
var missingCommand = lazyregexp.New(`(?:([^\s:]+): (?:command )?not found|command not found: (\S+))\s*$`)

// missingPackage finds the package Node could not load: "Error: Cannot
// find module 'express'" (a package, not a relative path), or the ESM
// "Cannot find package 'express' imported from ...".
var missingPackage = lazyregexp.New(`Cannot find (?:module|package) '([^'./][^']*)'`)

// installAdvice says what to do when a failed run's command or package was
// not found because the JavaScript packages of its folder are not installed
// (a fresh clone: `npm run dev` runs vite from node_modules/.bin, and the
// app requires express), or because the command runs an installed one
// outside a package script (`command: vite`): "" when that is not why.
func installAdvice(v rules.Verdict, dir string) string {
	if v.State != rules.StateFailed {
		return ""
	}
	what, program := "", ""
	if m := missingCommand.FindStringSubmatch(v.Line); m != nil {
		program = m[1] + m[2]
		what = program
	} else if m := missingPackage.FindStringSubmatch(v.Line); m != nil {
		what = m[1]
	} else {
		return ""
	}
	root, ok := packageRoot(dir)
	if !ok {
		return ""
	}
	manager := packageManager(root)
	install := manager + " install"
	modules, bin := false, program == "" // a package: node_modules decides
	// npm run puts every node_modules/.bin from the package up on PATH
	// (a workspace's packages are installed at its top).
	for d := dir; ; d = filepath.Dir(d) {
		modules = modules || isDir(filepath.Join(d, "node_modules"))
		bin = bin || program != "" && exists(filepath.Join(d, "node_modules", ".bin", program))
		if filepath.Dir(d) == d {
			break
		}
	}
	switch {
	case !modules:
		return what + " is not installed: no node_modules for " + filepath.Join(root, "package.json") +
			" (run " + install + ")"
	case !bin:
		return program + " is not in node_modules/.bin (run " + install + ", or add the package that provides it)"
	case program != "":
		// Installed, and not found: procs.yaml runs it as a command of its
		// own, outside the package script that would find it.
		return fmt.Sprintf("%s is in node_modules/.bin, which only %s run puts on PATH: write %q, or run it from a package.json script",
			program, manager, packageExec(manager)+" "+program)
	}
	return ""
}

// packageExec is the package manager's command that runs a program of
// node_modules/.bin: npx, pnpm exec, yarn, bunx.
func packageExec(manager string) string {
	switch manager {
	case "pnpm":
		return "pnpm exec"
	case "yarn":
		return "yarn"
	case "bun":
		return "bunx"
	}
	return "npx"
}

// typoAdvice names, when a failed run's shell could not find a program,
// what sh takes for a command of bash's (source: .), or the program of
// the process's PATH (in env, the run's environment) a typo away from
// it: "" when there is none, or the name was a path.
func typoAdvice(v rules.Verdict, env []string, dir string) string {
	if v.State != rules.StateFailed {
		return ""
	}
	m := missingCommand.FindStringSubmatch(v.Line)
	if m == nil {
		return ""
	}
	program := m[1] + m[2]
	if strings.Contains(program, "/") {
		return ""
	}
	if instead, ok := config.ShInstead(program); ok {
		return fmt.Sprintf("%s is bash's, and this sh has none: write %s, or bash -c '...'", program, instead)
	}
	similar := osproc.SimilarProgram(program, env, dir)
	if similar == "" {
		return ""
	}
	return fmt.Sprintf("%s is not in the process's PATH: did you mean %q?", program, similar)
}

// packageRoot returns the nearest folder at or above dir holding a
// package.json (a workspace's package, or the project).
func packageRoot(dir string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if exists(filepath.Join(d, "package.json")) {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// packageManager names the package manager whose lockfile is in root or a
// folder above it (a workspace's lockfile is at its top), npm when none.
func packageManager(root string) string {
	for d := root; ; d = filepath.Dir(d) {
		if manager, ok := frameworks.LockfileManager(d); ok {
			return manager
		}
		if filepath.Dir(d) == d {
			return "npm"
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}
