package scaffold

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// composeBuild turns a service built from the project's source into the
// process that runs its command locally, in its build context: the
// service's command, else its Dockerfile's CMD. A service others wait to
// have completed, or a script its command or entrypoint runs before the
// app, becomes a task.
func (pl *plan) composeBuild(file, name string, svc map[string]any) *process {
	cwd, dockerfile := buildContext(file, svc["build"])
	if !exists(pl.abs(cwd)) {
		pl.skip("%s service %q: its build context %s is not in this folder", file, name, cwd)
		return nil
	}
	command, from := composeCommand(svc["command"]), file+" command"
	if command == "" {
		command, from = dockerfileCMD(readAll(filepath.Join(pl.abs(cwd), filepath.FromSlash(dockerfile)))), path.Join(cwd, dockerfile)+" CMD"
	}
	switch {
	case command == "":
		pl.skip("%s service %q: neither it nor %s says what it runs: add it by hand if it serves in development", file, name, path.Join(cwd, dockerfile))
		return nil
	case keepAlive.MatchString(command):
		pl.skip("%s service %q: runs %q, an idle container to work in", file, name, command)
		return nil
	}
	source := fmt.Sprintf("%s service %q (built from %s, running %s)", file, name, displayDir(cwd), from)
	before, app := splitPrestart(command)
	var prestart *process
	if before != "" {
		prestart = pl.composeTask(name+"-prestart", cwd, before, source+", before the app", svc)
	} else if script := pl.entrypointSetup(cwd, dockerfile); script.command != "" {
		prestart = pl.composeTask(name+"-setup", cwd, script.command, script.source, svc)
	}
	p := pl.composeProcess(name, cwd, app, source, svc)
	if p.fromCompose && pl.composeTasks[name] {
		p.task, p.kind = true, "prestart"
	}
	if prestart != nil {
		p.taskDeps = append(p.taskDeps, prestart.name)
	}
	return p
}

// composeProcess is the process of one build service, unless a process
// already runs the same program (a Procfile line): that one is returned,
// with the service's environment, to take its depends_on too.
func (pl *plan) composeProcess(name, cwd, command, source string, svc map[string]any) *process {
	command = pl.localCommand(cwd, command)
	for _, other := range pl.procs {
		if other.cwd == cwd && sameProgram(other.commandLine(), command) {
			other.settings = append(other.settings, composeEnvironment(svc["environment"])...)
			pl.skip("%s: runs what %s runs", source, other.name)
			return other
		}
	}
	p := &process{
		name:        name,
		run:         func(int) runs { return runs{command: command} },
		cwd:         cwd,
		source:      source,
		settings:    composeEnvironment(svc["environment"]),
		fromCompose: true,
	}
	pl.detect(p)
	p.kind = appKindOf(p)
	pl.composePort(p, svc)
	pl.add(p, name+"-"+presetName(p))
	return p
}

// composeTask adds a one-shot step a service runs before its app.
func (pl *plan) composeTask(name, cwd, command, source string, svc map[string]any) *process {
	t := &process{
		name:        name,
		run:         func(int) runs { return runs{command: pl.localCommand(cwd, command)} },
		cwd:         cwd,
		source:      source,
		task:        true,
		tier:        tierBackEnd,
		kind:        "prestart",
		settings:    composeEnvironment(svc["environment"]),
		fromCompose: true,
	}
	pl.add(t)
	return t
}

// composePort is the port of a build service: the one its command names,
// else the container side of its first published port (the program
// listens there; docker's host side is gone when it runs here), else its
// preset's default.
func (pl *plan) composePort(p *process, svc map[string]any) {
	if port, flag := commandPort(p.commandLine()); port != 0 {
		p.port, p.portNote, p.portFixed = port, "from "+flag+" in the command", true
		return
	}
	list, _ := svc["ports"].([]any)
	for _, entry := range list {
		if m, ok := parsePortMapping(entry); ok {
			p.port, p.portNote = m.container, fmt.Sprintf("the container port of %q in the compose file", m.text)
			return
		}
	}
	if p.preset != nil && p.preset.DefaultPort != 0 {
		p.port, p.portNote = p.preset.DefaultPort, p.preset.Name+"'s default"
	}
}

// localCommand is a container's command as run here: python through the
// project's interpreter, and under uv or Poetry when the project uses one.
func (pl *plan) localCommand(cwd, command string) string {
	python := pl.python(cwd)
	words := strings.Fields(command)
	if len(words) == 0 {
		return command
	}
	switch {
	case words[0] == "python" || words[0] == "python3":
		return python + command[len(words[0]):]
	case strings.HasSuffix(python, " run python") && !strings.HasPrefix(command, strings.TrimSuffix(python, " python")) && pl.isPythonProject(cwd):
		return strings.TrimSuffix(python, "python") + command
	}
	return command
}

// isPythonProject reports whether the folder holds a Python project.
func (pl *plan) isPythonProject(cwd string) bool {
	return exists(pl.abs(cwd), "pyproject.toml") || exists(pl.abs(cwd), "requirements.txt")
}

// buildContext is the build context of a service, relative to the project
// (slash-separated, "" for the project itself), and its Dockerfile,
// relative to the context.
func buildContext(file string, build any) (string, string) {
	context, dockerfile := ".", "Dockerfile"
	switch b := build.(type) {
	case string:
		context = b
	case map[string]any:
		if c, ok := b["context"].(string); ok && c != "" {
			context = c
		}
		if d, ok := b["dockerfile"].(string); ok && d != "" {
			dockerfile = d
		}
	}
	base := path.Dir(strings.Split(file, " + ")[0])
	rel := path.Clean(path.Join(base, context))
	if rel == "." {
		rel = ""
	}
	return rel, path.Clean(dockerfile)
}

// composeCommand reads a command as a string or a list of words.
func composeCommand(v any) string {
	switch c := v.(type) {
	case string:
		return strings.TrimSpace(c)
	case []any:
		words := make([]string, len(c))
		for i, w := range c {
			words[i] = shellWord(fmt.Sprint(w))
		}
		return strings.Join(words, " ")
	}
	return ""
}

// shellWord quotes a word for sh when it needs it.
func shellWord(w string) string {
	if w != "" && !strings.ContainsAny(w, " \t'\"$`\\;&|<>()*?[]#~") {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// composeEnvironment reads environment as KEY=value lines, from a list or
// a map.
func composeEnvironment(v any) []string {
	var out []string
	switch env := v.(type) {
	case []any:
		for _, e := range env {
			out = append(out, fmt.Sprint(e))
		}
	case map[string]any:
		for k, val := range env {
			out = append(out, fmt.Sprintf("%s=%v", k, val))
		}
		sort.Strings(out)
	}
	return out
}

var (
	// keepAlive matches the commands of a container kept idle to work in.
	keepAlive = lazyregexp.New(`^(sleep\s+(infinity|\d{4,})|tail\s+-f\s+/dev/null|while\s+(true|:))`)
	// prestartStep matches a step run before the app in `A && B`: a
	// script, a migration, a wait.
	prestartStep = lazyregexp.New(`(^|\s)(\S+\.sh|migrate|upgrade|db:prepare|db:migrate|collectstatic|create_db|seed\S*|prestart|wait-for\S*)(\s|$)`)
)

// dockerfileCMD is the command of a Dockerfile's last CMD, in shell or
// exec form ("" when there is none, or only an earlier stage has one).
func dockerfileCMD(text string) string {
	cmd, _ := dockerfileRuns(text)
	return cmd
}

// dockerfileRuns reads the CMD and ENTRYPOINT of a Dockerfile's last stage.
func dockerfileRuns(text string) (cmd, entrypoint string) {
	for _, line := range strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		arg := strings.TrimSpace(line[strings.Index(line, fields[0])+len(fields[0]):])
		switch strings.ToUpper(fields[0]) {
		case "FROM":
			cmd, entrypoint = "", ""
		case "CMD":
			cmd = execForm(arg)
		case "ENTRYPOINT":
			entrypoint = execForm(arg)
		}
	}
	return cmd, entrypoint
}

// execForm reads ["a", "b"] as a command line; a shell form stays as is.
func execForm(arg string) string {
	arg = strings.TrimSpace(arg)
	var words []string
	if strings.HasPrefix(arg, "[") && json.Unmarshal([]byte(arg), &words) == nil {
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = shellWord(w)
		}
		return strings.Join(quoted, " ")
	}
	return arg
}

// splitPrestart splits `bash scripts/prestart.sh && fastapi run` into the
// steps before the app and the app itself.
func splitPrestart(command string) (before, app string) {
	parts := strings.Split(command, "&&")
	if len(parts) < 2 {
		return "", command
	}
	for _, part := range parts[:len(parts)-1] {
		if !prestartStep.MatchString(part) {
			return "", command
		}
	}
	trimmed := make([]string, len(parts)-1)
	for i, part := range parts[:len(parts)-1] {
		trimmed[i] = strings.TrimSpace(part)
	}
	return strings.Join(trimmed, " && "), strings.TrimSpace(parts[len(parts)-1])
}

// displayDir names a folder for a comment.
func displayDir(rel string) string {
	if rel == "" {
		return "the project folder"
	}
	return rel + "/"
}

// sameProgram reports whether two command lines run the same program the
// same way: their words, without variables set before them, runners
// (bundle exec, uv run, python -m), flags and addresses, agree on the
// first three.
func sameProgram(a, b string) bool {
	ka, kb := programKey(a), programKey(b)
	return len(ka) > 0 && slices.Equal(ka, kb)
}

// runnerWords are the words that only choose how a program is started.
var runnerWords = []string{"bundle", "exec", "uv", "run", "poetry", "pipenv", "python", "python3", "-m", "npx", "env"}

func programKey(command string) []string {
	var key []string
	leading := true
	for _, w := range strings.Fields(command) {
		switch {
		case leading && (strings.Contains(w, "=") || slices.Contains(runnerWords, w) || strings.HasSuffix(w, "/python")):
			continue
		case strings.HasPrefix(w, "-") || strings.ContainsAny(w, ":=$") || strings.Trim(w, "0123456789.") == "":
			leading = false
			continue
		}
		leading = false
		key = append(key, strings.TrimPrefix(w, "./"))
		if len(key) == 3 {
			break
		}
	}
	return key
}

// presetKinds are the app kinds of the presets whose projects init knows
// (their migrations, their port settings).
var presetKinds = map[string]string{"django": "django", "rails": "rails", "flask": "flask", "uvicorn": "fastapi",
	"phoenix": "phoenix", "laravel": "laravel", "go": "go", "nextjs": "node", "vite": "node", "nestjs": "node",
	"express": "node", "remix": "node", "nuxt": "node", "sveltekit": "node", "astro": "node"}

// appKindOf is the app kind of a process found in a compose file, from
// its preset.
func appKindOf(p *process) string {
	if kind, ok := presetKinds[presetName(p)]; ok {
		return kind
	}
	return "compose"
}
