package scaffold

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	frameworks "github.com/procsdev/procs/builtin-frameworks"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// A project's own task runner often starts several programs from one
// script: `concurrently "php artisan serve" "npm run dev"`, `npm-run-all
// --parallel dev:*`, `run-p api web`. procs runs each of them as its own
// process instead, so each gets its port, its readiness and its restarts.

// parallelRunner matches a script that starts several commands at once.
var parallelRunner = lazyregexp.New(`^(?:npx\s+|pnpm\s+(?:exec\s+|dlx\s+)?|yarn\s+|bunx\s+)?(concurrently|npm-run-all2?|run-p)\b`)

// changesFolder matches a command that runs in another folder: cd DIR,
// npm --prefix DIR, yarn --cwd DIR, pnpm -C DIR.
var changesFolder = lazyregexp.New(`(^|[\s;&(])cd\s|--prefix\b|--cwd\b|--dir\b|\s-C\s`)

// parallelCommand is one command of a parallel script, with the name the
// script gives it (concurrently's --names), if any.
type parallelCommand struct {
	name, command string
}

// splitParallel returns the commands a concurrently, npm-run-all
// --parallel or run-p script starts, each run by manager when it names a
// package.json script; nil when the script is not one of those.
func splitParallel(script, manager string) []parallelCommand {
	m := parallelRunner.FindStringSubmatch(strings.TrimSpace(script))
	if m == nil {
		return nil
	}
	words := shellSplit(script)
	var names []string
	var out []parallelCommand
	parallel := m[1] != "npm-run-all" && m[1] != "npm-run-all2"
	start := slices.IndexFunc(words, func(w string) bool { return w == m[1] })
	for i := start + 1; i < len(words); i++ {
		w := words[i]
		switch {
		case strings.HasPrefix(w, "--names=") || strings.HasPrefix(w, "-n="):
			_, list, _ := strings.Cut(w, "=")
			names = strings.Split(list, ",")
		case (w == "--names" || w == "-n") && i+1 < len(words):
			i++
			names = strings.Split(words[i], ",")
		case w == "--parallel" || w == "-p":
			parallel = true
		case (w == "-c" || w == "--prefix-colors" || w == "--prefix" || w == "-r" || w == "--race") && i+1 < len(words) && m[1] == "concurrently":
			i++ // an option that takes a value
		case strings.HasPrefix(w, "-"):
		case m[1] == "concurrently":
			out = append(out, concurrentlyCommand(strings.TrimSpace(w)))
		default:
			// npm-run-all and run-p take script names (globs left as they are).
			out = append(out, parallelCommand{name: w, command: runScript(manager, w)})
		}
	}
	if !parallel {
		return nil // npm-run-all without --parallel runs them one after another
	}
	for i := range out {
		if i < len(names) && names[i] != "" {
			out[i].name = names[i]
		}
	}
	return out
}

// managerShorthand is concurrently's way of naming a package.json
// script: npm:start:dev runs `npm run start:dev`.
var managerShorthand = lazyregexp.New(`^(npm|yarn|pnpm|bun):(\S+)(.*)$`)

// concurrentlyCommand is one command of a concurrently script, its
// npm:script shorthand written out as the command it stands for.
func concurrentlyCommand(command string) parallelCommand {
	m := managerShorthand.FindStringSubmatch(command)
	if m == nil {
		return parallelCommand{command: command}
	}
	return parallelCommand{name: m[2], command: runScript(m[1], m[2]) + m[3]}
}

// shellSplit splits a command line into words, honouring single and
// double quotes and backslash escapes, as sh does for a simple command.
func shellSplit(line string) []string {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, r := range line {
		switch {
		case escaped:
			word.WriteRune(r)
			escaped = false
		case r == '\\' && quote != '\'':
			escaped, inWord = true, true
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

// commandApp is a process for a command the project's own files name (a
// script's part, a README line) run in rel: its preset, and the port its
// command or preset gives it. A command running a package.json script of
// rel is that script's process, with what nodeScript knows of it.
func (pl *plan) commandApp(rel, command, source string) *process {
	if pkg, ok := frameworks.ReadPackageJSON(pl.abs(rel)); ok {
		if script := scriptRun(command); script != "" && pkg.Scripts[script] != "" {
			// Run with the project's package manager, which also moves
			// its port when it must.
			p := pl.nodeScript(rel, pkg, script)
			p.source = source
			return p
		}
	}
	p := &process{
		run:    func(int) runs { return runs{command: command} },
		cwd:    rel,
		source: source,
		kind:   "command",
	}
	pl.detect(p)
	if p.preset != nil && !strings.HasPrefix(p.reason, "command ") {
		// Only the folder's files chose the preset (artisan beside
		// `php artisan queue:listen`): the command is not that server,
		// and procs up must not wait for the server's ready line.
		p.preset, p.reason, p.framework, p.tier = nil, "", "none", tierBackEnd
	}
	if port, _ := commandPort(command); port != 0 {
		p.port, p.portNote, p.portFixed = port, "in the command", true
	} else if p.preset != nil && p.preset.DefaultPort != 0 && p.preset.Category == frameworks.CategoryDevServer {
		p.port, p.portNote, p.ownPort = p.preset.DefaultPort, p.preset.Name+"'s default", p.preset.DefaultPort
		p.movable = p.preset.PortEnv != ""
	}
	if p.preset != nil && slices.Contains(appKinds, p.preset.Name) {
		p.kind = p.preset.Name // its stack's migrations apply to it
	}
	return p
}

// workerCommand matches a command that runs a background worker, which
// uses the database of its app as the server does.
var workerCommand = lazyregexp.New(`(?i)\b(queue:(work|listen)|horizon|worker|celery|sidekiq|jobs?:work|beat|scheduler?)\b`)

// shareMigrations makes the workers of a folder wait for the migrations
// its app waits for: they use the same database.
func (pl *plan) shareMigrations() {
	for _, app := range pl.procs {
		if len(app.taskDeps) == 0 || app.task {
			continue
		}
		for _, w := range pl.procs {
			if w == app || w.task || w.cwd != app.cwd || len(w.taskDeps) > 0 || !workerCommand.MatchString(w.commandLine()) {
				continue
			}
			for _, dep := range app.taskDeps {
				if d := pl.find(dep); d != nil && d.kind == "migrate" {
					w.taskDeps = append(w.taskDeps, dep)
				}
			}
		}
	}
}

// scriptRun is the package.json script a command runs (npm run dev, pnpm
// dev, yarn dev, bun run dev, npm start), or "".
func scriptRun(command string) string {
	words := strings.Fields(command)
	if len(words) < 2 {
		return ""
	}
	switch {
	case words[0] == "npm" && (words[1] == "start" || words[1] == "test"):
		return words[1]
	case (words[0] == "npm" || words[0] == "bun" || words[0] == "pnpm" || words[0] == "yarn") && words[1] == "run" && len(words) > 2:
		return words[2]
	case words[0] == "pnpm" || words[0] == "yarn" || words[0] == "bun":
		return words[1]
	}
	return ""
}

// parallelApps turns a script that starts several commands into one
// process each, named after the script's own names when it gives them.
// A script with fewer than two servers or workers among them is left
// whole (nil): a server beside its code generators (next dev with
// contentlayer dev) is one process, the script its developers run.
func (pl *plan) parallelApps(rel, file, scriptName, script, manager string) []*process {
	commands := splitParallel(script, manager)
	serving := 0
	for _, c := range commands {
		if !generatorWords.MatchString(c.name+" "+c.command) && pl.commandServes(rel, c.command) {
			serving++
		}
	}
	if serving < 2 {
		return nil
	}
	var out []*process
	for _, c := range commands {
		if changesFolder.MatchString(c.command) {
			continue // it starts an app in another folder, found there
		}
		source := fmt.Sprintf("%s script %q, which runs %q", path.Join(rel, file), scriptName, c.command)
		p := pl.commandApp(rel, c.command, source)
		if c.name != "" {
			p.name = c.name
		}
		out = append(out, p)
	}
	return out
}

// generatorWords mark a command that writes code or types for the
// server (prisma generate --watch, gen-typings): it runs beside the
// server, it is not one.
var generatorWords = lazyregexp.New(`(?i)(^|[\s/:_.-])(gen|generate|codegen|typings?|types)([\s/:_.-]|$)`)

// commandServes reports whether a command of a parallel script, or the
// package.json script it runs, is a server or a worker by its own words:
// a preset's command, or a worker's.
func (pl *plan) commandServes(rel, command string) bool {
	if name := scriptRun(command); name != "" {
		if pkg, ok := frameworks.ReadPackageJSON(pl.abs(rel)); ok && pkg.Scripts[name] != "" {
			command = pkg.Scripts[name]
		}
	}
	if workerCommand.MatchString(command) {
		return true
	}
	det, ok := frameworks.Detect(command, nil, pl.abs(rel))
	return ok && strings.HasPrefix(det.Reason, "command ") &&
		(det.Preset.Category == frameworks.CategoryDevServer || det.Preset.Category == frameworks.CategoryService)
}

// nodeParallelApps splits the dev (or start, or serve) script of
// package.json in rel when it starts several commands at once. A script
// that starts the workspace's packages is left to addApps, which finds
// those packages.
func (pl *plan) nodeParallelApps(rel string) []*process {
	pkg, ok := frameworks.ReadPackageJSON(pl.abs(rel))
	if !ok || (rel == "" && pl.hasWorkspaces()) {
		return nil
	}
	for _, name := range nodeScripts {
		if script := pkg.Scripts[name]; strings.TrimSpace(script) != "" {
			if startsWorkspace(script) {
				return nil
			}
			return pl.parallelApps(rel, "package.json", name, script, pl.packageManager(rel, pkg))
		}
	}
	return nil
}

// renderUndecided writes each process init could not decide on as a
// commented-out block under its question, so that nothing the project
// runs is left out silently.
func (pl *plan) renderUndecided(b *bytes.Buffer) {
	for _, u := range pl.undecided {
		var block bytes.Buffer
		u.p.render(&block)
		fmt.Fprintf(b, "\n  # %s\n", u.question)
		for _, line := range strings.Split(strings.TrimRight(block.String(), "\n"), "\n") {
			fmt.Fprintf(b, "  # %s\n", strings.TrimPrefix(line, "  "))
		}
	}
}
