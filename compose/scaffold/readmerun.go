package scaffold

import (
	"fmt"
	"path"
	"slices"
	"strings"

	frameworks "github.com/procsdev/procs/builtin-frameworks"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// addReadmeCommands adds what the README runs that init has not found in
// the stack's files: a server or worker its task runner starts, a
// database it starts with docker run, a one-shot step (migrations, seed)
// the processes of its folder then wait for. What it cannot decide on is
// written commented out with the question.
func (pl *plan) addReadmeCommands() {
	commands, file := pl.readmeCommands()
	var tasks []*process
	for _, c := range commands {
		rel := ""
		for _, segment := range chainSplit.Regexp().Split(c.command, -1) {
			words := strings.Fields(segment)
			if len(words) == 2 && words[0] == "cd" {
				if dir := path.Clean(words[1]); exists(pl.abs(dir)) && !strings.HasPrefix(dir, "..") {
					rel = strings.TrimPrefix(dir, ".")
				}
				continue
			}
			step := readmeStep{command: strings.TrimSpace(segment), source: fmt.Sprintf("%s line %d: %s", file, c.line, strings.TrimSpace(segment))}
			for _, s := range pl.expandTarget(rel, step) {
				if p := pl.readmeProcess(rel, s.command, s.source); p != nil {
					pl.add(p, path.Base(p.cwd)+"-"+p.name)
					if p.task {
						tasks = append(tasks, p)
					}
				}
			}
		}
	}
	pl.waitForReadmeTasks(tasks)
}

// readmeProcess is the process a README command runs in rel, or nil when
// it is no process, or one init already has.
func (pl *plan) readmeProcess(rel, command, source string) *process {
	if command == "" || notProcesses.MatchString(command) {
		return nil
	}
	words := strings.Fields(command)
	if words[0] == "docker" && len(words) > 1 && words[1] == "run" {
		pl.readmeService(words[2:], source)
		return nil
	}
	if words[0] == "make" || words[0] == "just" {
		pl.askAbout(rel, command, source)
		return nil
	}
	p := pl.runnerProcess(rel, command, source)
	if _, _, isTask := pyTaskCall(command); p == nil && (isTask || scriptRun(command) != "") {
		return nil // a script or task the project does not have, or a build
	}
	if p == nil {
		if missingFile(pl.abs(rel), words) {
			return nil // an example for the reader's own file
		}
		p = pl.commandApp(rel, command, source)
		p.name = presetName(p)
		if p.name == "" {
			p.name = path.Base(words[0])
		}
		if p.preset == nil && (len(words) < 2 || !oneShotWords.MatchString(command)) {
			if len(words) >= 2 && slices.Contains(runVerbs, words[1]) {
				pl.askAbout(rel, command, source) // cargo run, dotnet watch: a program init does not know
			}
			return nil // a command init knows nothing of (a table's bare `seed`): not a guess to write
		}
	}
	if oneShotWords.MatchString(command) || oneShotWords.MatchString(p.script) {
		if pl.hasMigration(p.cwd) {
			return nil // the migrate task found from the stack does the repeatable part
		}
		if !pl.repeatableStep(p.cwd, command, source) {
			return nil
		}
		p.task, p.tier, p.port, p.kind, p.preset, p.framework = true, tierBackEnd, 0, "readme-task", nil, ""
		p.name = stepName(command)
	} else if p.preset == nil || (p.preset.Category != frameworks.CategoryDevServer && !slices.Contains(workerPresets, p.preset.Name)) {
		if !slices.Contains(serverTaskNames, p.name) {
			return nil
		}
	}
	if runsSame(pl.procs, p) {
		return nil // found already: the README confirms it
	}
	p.source = source
	return p
}

// runnerProcess is the process of a command that runs a task of the
// project's own runner: a package.json script (in rel, or in the one
// workspace package that has it), a poe or PDM task. Builds and checks
// are none.
func (pl *plan) runnerProcess(rel, command, source string) *process {
	if name := scriptRun(command); name != "" {
		if buildWords.MatchString(name) {
			return nil
		}
		if pkg, ok := frameworks.ReadPackageJSON(pl.abs(rel)); ok && startsWorkspace(pkg.Scripts[name]) {
			return nil // it starts the workspace's packages, found in their folders
		}
		for _, dir := range append([]string{rel}, pl.workspaceDirs()...) {
			if pkg, ok := frameworks.ReadPackageJSON(pl.abs(dir)); ok && pkg.Scripts[name] != "" {
				p := pl.nodeScript(dir, pkg, name)
				p.name = name
				return p
			}
		}
		return nil
	}
	name, args, ok := pyTaskCall(command)
	if !ok || buildWords.MatchString(name) {
		return nil
	}
	for _, t := range readPyTasks(pl.abs(rel)) {
		if t.name == name {
			return pl.pyTaskProcess(rel, t, args)
		}
	}
	return nil
}

// pyTaskRun matches a command running a poe or PDM task, through the
// project's environment or not: poe NAME, uv run poe NAME, pdm run NAME.
var pyTaskRun = lazyregexp.New(`^(?:(?:uv|poetry|hatch)\s+run\s+)?(?:poe|poetry\s+poe|pdm(?:\s+run)?)\s+([A-Za-z0-9_:.-]+)\s*(.*)$`)

// pyTaskCall splits a poe or PDM command into its task and arguments.
func pyTaskCall(command string) (name, args string, ok bool) {
	m := pyTaskRun.FindStringSubmatch(command)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// missingFile reports whether a command names a source file that is not
// in dir: the README's example for a file the reader writes.
func missingFile(dir string, words []string) bool {
	for _, w := range words[1:] {
		ext := path.Ext(w)
		if !strings.HasPrefix(w, "-") && slices.Contains([]string{".py", ".js", ".ts", ".rb", ".exs", ".php", ".go"}, ext) && !exists(dir, w) {
			return true
		}
	}
	return false
}

// hasMigration reports whether a migrate task already runs in rel.
func (pl *plan) hasMigration(rel string) bool {
	return slices.ContainsFunc(pl.procs, func(p *process) bool { return p.kind == "migrate" && p.cwd == rel })
}

// waitForReadmeTasks makes the servers and workers of each README task's
// folder wait for it: the README runs it before starting them.
func (pl *plan) waitForReadmeTasks(tasks []*process) {
	for _, t := range tasks {
		for _, p := range pl.procs {
			if p.task || p.cwd != t.cwd || p.tier != tierBackEnd || p.kind == "build" || slices.Contains(p.taskDeps, t.name) {
				continue
			}
			p.taskDeps = append(p.taskDeps, t.name)
		}
	}
}

// dockerValueFlags are the options of docker run that take a value.
var dockerValueFlags = []string{"-p", "--publish", "-e", "--env", "-v", "--volume", "--name", "-w", "--workdir",
	"--network", "--env-file", "-u", "--user", "--entrypoint", "--mount", "-l", "--label", "--platform", "--restart", "-h", "--hostname"}

// readmeService adds the server a `docker run` line of the README starts,
// when its image is one init knows how to run locally.
func (pl *plan) readmeService(args []string, source string) {
	var ports []any
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-p" || a == "--publish") && i+1 < len(args):
			ports = append(ports, args[i+1])
			i++
		case slices.Contains(dockerValueFlags, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			name := path.Base(strings.SplitN(a, ":", 2)[0])
			pl.composeService(source, name, map[string]any{"image": a, "ports": ports})
			return
		}
	}
}

// runVerbs are the subcommands that start a program: `cargo run`,
// `dotnet watch`, `swift run`.
var runVerbs = []string{"run", "watch", "serve", "dev", "start"}

// askAbout writes a README command init cannot see into (a make or just
// target) commented out, when its name says it starts something.
func (pl *plan) askAbout(rel, command, source string) {
	words := strings.Fields(command)
	if len(words) < 2 || !slices.Contains(append(serverTaskNames, runVerbs...), strings.TrimPrefix(words[1], "run-")) {
		return
	}
	p := &process{name: words[1], run: func(int) runs { return runs{command: command} }, cwd: rel, source: source}
	question := fmt.Sprintf("%s: init cannot see what `%s` starts. If it is a server or a worker, uncomment this (and give its port).", source, command)
	pl.undecided = append(pl.undecided, undecided{question: question, p: p})
}

// decideSomething keeps init from finding nothing in a project whose
// README runs something: with no process found, the first command it
// could not decide on is written as a process, disabled (procs up leaves
// it; procs start runs it), under its question.
func (pl *plan) decideSomething() {
	if len(pl.procs) > 0 || len(pl.undecided) == 0 {
		return
	}
	first := pl.undecided[0]
	pl.undecided = pl.undecided[1:]
	first.p.disabled = true
	first.p.notes = append(first.p.notes, first.question, "disabled until you say: remove disabled: true if procs up should start it")
	pl.add(first.p)
}

var (
	// authoringStep matches a command that writes new migration files (a
	// revision with a message, makemigrations, the migrations folder
	// created): a developer runs it when the models change, not at start.
	authoringStep = lazyregexp.New(`\bmakemigrations\b|\brevision\b|\b(db|alembic)\s+init\b|\bmigrate\b.*\s(-m|--message)\b`)
	// alembicUpgrade matches Flask-Migrate's and Alembic's upgrade, which
	// needs the migrations folder the project keeps.
	alembicUpgrade = lazyregexp.New(`\b(db|alembic)\s+upgrade\b`)
)

// repeatableStep reports whether a README's one-shot command can run at
// every start: not one that writes migrations, nor an upgrade with no
// migrations to apply yet. What it leaves out is listed, with why.
func (pl *plan) repeatableStep(rel, command, source string) bool {
	switch {
	case authoringStep.MatchString(command):
		pl.skip("%s: writes migration files; run it yourself when the models change", source)
		return false
	case alembicUpgrade.MatchString(command) && !exists(pl.abs(rel), "migrations") && !exists(pl.abs(rel), "alembic.ini"):
		pl.skip("%s: the project has no migrations folder yet; once it has, add it as a task the app waits for", source)
		return false
	}
	return true
}

// stepName names a README's one-shot step after what it does.
func stepName(command string) string {
	switch {
	case strings.Contains(command, "seed"):
		return "seed"
	case strings.Contains(command, "migrat") || strings.Contains(command, "upgrade") || strings.Contains(command, "db push") || strings.Contains(command, "db:push"):
		return "migrate"
	}
	// A step named by its last word (flask --app flaskr init-db): init-db.
	words := strings.Fields(command)
	if last := words[len(words)-1]; oneShotWords.MatchString(last) && !strings.ContainsAny(last, "/.=") {
		return last
	}
	return "setup"
}
