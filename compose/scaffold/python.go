package scaffold

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"

	frameworks "github.com/procsdev/procs/builtin-frameworks"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// djangoPort is Django's runserver default.
const djangoPort = 8000

// djangoApp runs manage.py runserver in rel, with the project's Python,
// when manage.py is Django's (or nothing says whose it is); a Flask
// project's own manage.py runs the command it defines (flaskManageApp).
func (pl *plan) djangoApp(rel string) *process {
	if !exists(pl.abs(rel), "manage.py") {
		return nil
	}
	if !pl.usesDjango(rel) {
		if p := pl.flaskManageApp(rel); p != nil {
			return p
		}
	}
	python := pl.python(rel)
	p := &process{
		run: func(port int) runs {
			return runs{command: fmt.Sprintf("%s manage.py runserver %d", python, port)}
		},
		cwd:      rel,
		port:     djangoPort,
		portNote: "runserver's default",
		movable:  true,
		source:   path.Join(rel, "manage.py"),
		kind:     "django",
	}
	pl.detect(p)
	return p
}

// python is how the project runs Python from rel: through its tool when a
// lock file names one (uv, Poetry, Pipenv), else its virtualenv, else
// python3 from PATH.
func (pl *plan) python(rel string) string {
	for _, dir := range []string{rel, ""} {
		switch {
		case exists(pl.abs(dir), "uv.lock"):
			return "uv run python"
		case exists(pl.abs(dir), "poetry.lock"):
			return "poetry run python"
		case exists(pl.abs(dir), "Pipfile"):
			return "pipenv run python"
		}
	}
	for _, dir := range []string{rel, ""} {
		for _, venv := range []string{".venv", "venv"} {
			if !exists(pl.abs(dir), venv, "bin", "python") {
				continue
			}
			interpreter, err := filepath.Rel(pl.abs(rel), filepath.Join(pl.abs(dir), venv, "bin", "python"))
			if err == nil {
				return filepath.ToSlash(interpreter)
			}
		}
	}
	return "python3"
}

// djangoWord matches what names Django in manage.py or a dependency list.
var djangoWord = lazyregexp.New(`(?i)\bdjango\b|DJANGO_SETTINGS_MODULE`)

// usesDjango reports whether manage.py in rel is Django's: it names
// Django, or the project's dependencies do. Flask-Script and click
// projects have a manage.py of their own, without runserver's port
// argument or migrate.
func (pl *plan) usesDjango(rel string) bool {
	dir := pl.abs(rel)
	for _, name := range []string{"manage.py", "requirements.txt", "requirements/base.txt", "requirements/local.txt", "pyproject.toml", "Pipfile"} {
		if djangoWord.MatchString(readAll(filepath.Join(dir, filepath.FromSlash(name)))) {
			return true
		}
	}
	return false
}

var (
	// manageCommand is a command a Flask-Script or click manage.py
	// defines: a decorated function, or one added by name.
	manageCommand = lazyregexp.New(`(?m)@\w+\.command(?:\(\s*(?:name\s*=\s*)?["']([\w-]+)["'][^)]*\))?(?:\(\))?\s*\n\s*def\s+(\w+)|add_command\(\s*["']([\w-]+)["']\s*,\s*Server\(`)
	// flaskManage matches a manage.py built on Flask's own CLI or on
	// Flask-Script.
	flaskManage = lazyregexp.New(`\bFlaskGroup\b|flask_script|flask\.ext\.script`)
	// runPort is the port app.run(port=...) or Server(port=...) names.
	runPort = lazyregexp.New(`(?:\.run|Server)\([^)]*\bport\s*=\s*(\d{2,5})`)
)

// serveCommands are the manage.py commands that start the server, in the
// order init prefers them.
var serveCommands = []string{"run", "runserver", "serve", "server", "dev", "start"}

// flaskManageApp runs the server command of a Flask project's manage.py:
// the one it defines (def run(): app.run()), else Flask-Script's
// runserver or FlaskGroup's run, which they add by themselves.
func (pl *plan) flaskManageApp(rel string) *process {
	text := readAll(filepath.Join(pl.abs(rel), "manage.py"))
	if !flaskManage.MatchString(text) {
		return nil
	}
	defined := manageCommands(text)
	if !slices.ContainsFunc(defined, func(c string) bool { return slices.Contains(serveCommands, c) }) {
		defined = append(defined, "runserver") // Flask-Script's own; FlaskGroup's is run
		if flaskManage.Regexp().FindString(text) == "FlaskGroup" {
			defined[len(defined)-1] = "run"
		}
	}
	i := slices.IndexFunc(serveCommands, func(c string) bool { return slices.Contains(defined, c) })
	command := fmt.Sprintf("%s manage.py %s", pl.python(rel), serveCommands[i])
	p := &process{
		run:      func(int) runs { return runs{command: command} },
		cwd:      rel,
		port:     flaskPort,
		portNote: "Flask's default (app.run, manage.py names no port)",
		source:   path.Join(rel, "manage.py") + " (Flask, not Django)",
		kind:     "flask",
	}
	if m := runPort.FindStringSubmatch(text); m != nil {
		p.port, _ = strconv.Atoi(m[1])
		p.portNote, p.portFixed = "the port manage.py runs it on", true
	}
	// procs up would take manage.py for Django's: name the preset.
	p.preset, _ = frameworks.Lookup("flask")
	p.reason = "manage.py builds on Flask-Script or Flask's CLI"
	p.framework, p.tier = "flask", tierBackEnd
	return p
}

// manageCommands are the names of the commands manage.py defines.
func manageCommands(text string) []string {
	var out []string
	for _, m := range manageCommand.Regexp().FindAllStringSubmatch(text, -1) {
		for _, name := range m[1:] {
			if name != "" {
				out = append(out, name)
				break
			}
		}
	}
	return out
}
