package frameworks

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// A program no preset names may still run on a runtime that has one: an
// npm package's command (json-server, hardhat) is a Node.js script, a
// pip-installed one (mkdocs, jupyter) a Python script.
// It behaves as the runtime's programs do: a server among them is ready
// once it listens, a worker once it has run a while without an error, and
// an uncaught exception is the runtime's. Without a preset such a program
// was ready after a second of running: a static site generator's server
// was "ready" seconds before it listened, and what waited for it failed.
//
// The runtime is read from the program's first line (#!/usr/bin/env node),
// or, for the shell scripts pnpm writes into node_modules/.bin, from the
// node command they run. The program is looked for as the shell of an npm
// script would find it: node_modules/.bin of the folder and of each folder
// above it, then PATH.

// runtimePresets are the presets of the runtimes a script's first line
// names: the generic ones (runtimeVariant says how they apply).
var runtimePresets = map[string]string{
	"node": "express", "nodejs": "express",
	"python": "python", "pypy": "python",
	"bun": "bun", "deno": "deno",
}

// runtimeVariant is runtime's preset as it applies to a program that runs
// on it and is not its own: ready once it listens (or assumed, as the
// runtime's programs are), not on the runtime's ready lines, whose rule
// that a line naming a port is a promise to listen on it is an Express
// app's: Docusaurus, before it had a preset, said "Docusaurus website
// is running at: http://localhost:3000/" seconds before it listened, and
// was failed for it. The runtime's default port is its guess for its own
// server files, not the program's (hardhat serves on 8545): there is none.
func runtimeVariant(runtime *Preset) *Preset {
	p := *runtime
	p.ReadyPatterns, p.DefaultPort = nil, 0
	p.ReadyWhenListening = true
	return &p
}

// notRuntimePrograms are scripts of a runtime that are not programs run
// on it: package managers, which run something else (a script, an
// install), and the runtimes' own launchers.
var notRuntimePrograms = map[string]bool{
	"npm": true, "npx": true, "yarn": true, "yarnpkg": true, "pnpm": true, "pnpx": true,
	"corepack": true, "pip": true, "pip3": true, "pipx": true, "uv": true, "uvx": true,
	"poetry": true, "pdm": true, "hatch": true, "pipenv": true,
}

// detectRuntime picks the preset of the runtime that runs command's
// program, when no preset names the program itself (Detect tries this
// last): through a package.json script (`npm start` runs "hardhat
// node") to the program it runs, and the script's first line.
func (c *catalog) detectRuntime(command, dir string, depth int) (Detection, bool) {
	words, cmdDir := commandWords(command)
	if len(words) == 0 || depth > maxScriptDepth {
		return Detection{}, false
	}
	if cmdDir != "" {
		dir = resolveDir(dir, cmdDir)
	}
	if target, ok := execTarget(words); ok {
		return c.detectRuntime(strings.Join(target, " "), dir, depth+1)
	}
	if runsScript(words) {
		pkg, ok := ReadPackageJSON(dir)
		if !ok {
			return Detection{}, false
		}
		script, isRun := scriptName(words, pkg)
		body, ok := pkg.Scripts[script]
		if !isRun || !ok {
			return Detection{}, false
		}
		d, ok := c.detectRuntime(body, dir, depth+1)
		if ok && !strings.HasPrefix(d.Reason, "package.json") {
			d.Reason = fmt.Sprintf("package.json script %q runs %q; %s", script, body, d.Reason)
		}
		return d, ok
	}
	if notRuntimePrograms[programName(words)] {
		return Detection{}, false
	}
	path, runtime, line := programRuntimes.lookup(words[0], dir)
	p, ok := c.runtimes[runtime]
	if !ok {
		return Detection{}, false
	}
	reason := fmt.Sprintf("%s is a %s script (%s), which no preset names", shownPath(path, dir), runtime, line)
	return Detection{Preset: p, Reason: reason, Runtime: runtime}, true
}

// runtimeCache keeps what findProgram and scriptRuntime found for a
// program in a folder, for a moment: procs detects every process of its
// config before the first one starts, and two hundred `exec sleep` were
// two hundred walks of node_modules and PATH and reads of /usr/bin/sleep
// (4 ms grew to 16 ms). The moment is short, so that a reload after an
// npm install looks again.
type runtimeCache struct {
	mu      sync.Mutex
	entries map[string]programRuntime
}

// programRuntime is what a program word resolved to: its file, and the
// runtime its first line names, with that line ("" when none).
type programRuntime struct {
	path, runtime, line string
	at                  time.Time
}

// runtimeCacheFor is how long a lookup is believed.
const runtimeCacheFor = 2 * time.Second

var programRuntimes = runtimeCache{entries: map[string]programRuntime{}}

// lookup finds program from dir and reads its runtime (findProgram,
// scriptRuntime), or returns what it found a moment ago.
func (rc *runtimeCache) lookup(program, dir string) (path, runtime, line string) {
	key := program + "\x00" + dir + "\x00" + os.Getenv("PATH")
	now := time.Now()
	rc.mu.Lock()
	e, ok := rc.entries[key]
	rc.mu.Unlock()
	if ok && now.Sub(e.at) < runtimeCacheFor {
		return e.path, e.runtime, e.line
	}
	e = programRuntime{path: findProgram(program, dir), at: now}
	if e.path != "" {
		e.runtime, e.line = scriptRuntime(e.path)
	}
	rc.mu.Lock()
	for k, old := range rc.entries {
		if now.Sub(old.at) >= runtimeCacheFor {
			delete(rc.entries, k)
		}
	}
	rc.entries[key] = e
	rc.mu.Unlock()
	return e.path, e.runtime, e.line
}

// findProgram returns the file program names, as the shell of an npm
// script finds it (node_modules/.bin of dir and of each folder above it,
// then PATH), or a path relative to dir; "" when there is none.
func findProgram(program, dir string) string {
	if strings.Contains(program, "/") {
		path := program
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if isFile(path) {
			return path
		}
		return ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		for d := abs; ; d = filepath.Dir(d) {
			if path := filepath.Join(d, "node_modules", ".bin", program); isFile(path) {
				return path
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if d == "" {
			continue
		}
		if path := filepath.Join(d, program); isFile(path) {
			return path
		}
	}
	return ""
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

// scriptHead is how much of a program scriptRuntime reads: a first line,
// or the few lines of a pnpm shim.
const scriptHead = 2048

// pnpmShimNode finds the node command of the shell script pnpm writes in
// node_modules/.bin: `exec node "$basedir/../pkg/cli.js" "$@"`, or the
// node beside it.
var pnpmShimNode = lazyregexp.New(`(?m)^\s*exec\s+("\$basedir/)?node"?\s`)

// scriptRuntime reads the runtime a script runs on, by its first line,
// and returns it ("node", "python", "bun", "deno") with that line; "" for
// a binary, or a script of another interpreter.
func scriptRuntime(path string) (runtime, line string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	head := make([]byte, scriptHead)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	first, _, _ := bytes.Cut(head, []byte("\n"))
	line = strings.TrimSpace(string(first))
	interpreter, ok := shebangProgram(line)
	if !ok {
		return "", ""
	}
	switch runtime = strings.TrimRight(interpreter, "0123456789."); {
	case runtimePresets[runtime] != "":
		return runtime, line
	case isShell(interpreter) && filepath.Base(filepath.Dir(path)) == ".bin" && pnpmShimNode.Regexp().Match(head):
		return "node", "a shell script that runs node"
	}
	return "", ""
}

// shebangProgram returns the base name of the interpreter a script's
// first line names: `#!/usr/bin/python3`, or env's command in
// `#!/usr/bin/env -S deno run`.
func shebangProgram(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return "", false
	}
	words := strings.Fields(rest)
	if len(words) == 0 {
		return "", false
	}
	if filepath.Base(words[0]) == "env" {
		// -S splits the rest of the line into words, which it is here
		// already: the next word is the command, not -S's value.
		words = slices.DeleteFunc(words, func(w string) bool { return w == "-S" || w == "--split-string" })
		words = stripWrappers(words)
		if len(words) == 0 {
			return "", false
		}
	}
	return filepath.Base(words[0]), true
}

// shownPath is path as a person would name it: relative to dir when it is
// inside it.
func shownPath(path, dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(abs, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
