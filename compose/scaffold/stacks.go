package scaffold

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// Default ports of the stacks below, as their dev servers choose them.
const (
	hugoPort    = 1313
	phoenixPort = 4000
	laravelPort = 8000
	fastapiPort = 8000
	flaskPort   = 5000
)

// hugoApp runs `hugo server` in a Hugo site (hugo.toml/yaml/json, or a
// config.toml beside content/).
func (pl *plan) hugoApp(rel string) *process {
	dir := pl.abs(rel)
	source := ""
	for _, name := range []string{"hugo.toml", "hugo.yaml", "hugo.json"} {
		if exists(dir, name) {
			source = name
			break
		}
	}
	if source == "" && exists(dir, "config.toml") && exists(dir, "content") {
		source = "config.toml"
	}
	if source == "" {
		return nil
	}
	p := &process{
		run: func(port int) runs { return runs{command: fmt.Sprintf("hugo server --port %d", port)} },
		cwd: rel, port: hugoPort, portNote: "hugo server's default", movable: true,
		source: path.Join(rel, source), kind: "hugo",
	}
	pl.detect(p)
	return p
}

// phoenixApp runs `mix phx.server` in an Elixir project depending on phoenix.
func (pl *plan) phoenixApp(rel string) *process {
	if !fileMatches(filepath.Join(pl.abs(rel), "mix.exs"), `\{:phoenix,`) {
		return nil
	}
	p := &process{
		// Phoenix's dev config reads PORT, which procs sets from port.
		run: func(int) runs { return runs{command: "mix phx.server"} },
		cwd: rel, port: phoenixPort, portNote: "Phoenix's default", movable: true,
		source: path.Join(rel, "mix.exs"), kind: "phoenix",
	}
	pl.detect(p)
	return p
}

// laravelApp runs `php artisan serve` in a Laravel project.
func (pl *plan) laravelApp(rel string) *process {
	if !exists(pl.abs(rel), "artisan") {
		return nil
	}
	p := &process{
		run: func(port int) runs { return runs{command: fmt.Sprintf("php artisan serve --port=%d", port)} },
		cwd: rel, port: laravelPort, portNote: "artisan serve's default", movable: true,
		source: path.Join(rel, "artisan"), kind: "laravel",
	}
	pl.detect(p)
	return p
}

// pythonWebApp runs a FastAPI or Flask app that has no manage.py: its
// requirements or pyproject name the framework, and main.py or app.py
// holds the app.
func (pl *plan) pythonWebApp(rel string) *process {
	dir := pl.abs(rel)
	if exists(dir, "manage.py") {
		return nil
	}
	module := ""
	for _, name := range []string{"main.py", "app.py", "app/main.py"} {
		if exists(dir, name) {
			module = strings.TrimSuffix(strings.ReplaceAll(name, "/", "."), ".py")
			break
		}
	}
	if module == "" {
		return nil
	}
	deps := readAll(filepath.Join(dir, "requirements.txt")) + readAll(filepath.Join(dir, "pyproject.toml"))
	python := pl.python(rel)
	p := &process{cwd: rel, movable: true, source: path.Join(rel, strings.ReplaceAll(module, ".", "/")+".py")}
	switch {
	case fastapiCLI.MatchString(deps):
		// FastAPI's own CLI (fastapi[standard]) is what its docs run.
		file := strings.ReplaceAll(module, ".", "/") + ".py"
		p.kind, p.port, p.portNote = "fastapi", fastapiPort, "fastapi dev's default"
		p.run = func(port int) runs {
			return runs{command: fmt.Sprintf("%s -m fastapi dev %s --port %d", python, file, port)}
		}
	case regexp.MustCompile(`(?im)^\s*"?(fastapi|uvicorn)\b`).MatchString(deps):
		p.kind, p.port, p.portNote = "fastapi", fastapiPort, "uvicorn's default"
		p.run = func(port int) runs {
			return runs{command: fmt.Sprintf("%s -m uvicorn %s:app --reload --port %d", python, module, port)}
		}
	case regexp.MustCompile(`(?im)^\s*"?flask\b`).MatchString(deps):
		p.kind, p.port, p.portNote = "flask", flaskPort, "flask run's default"
		p.run = func(port int) runs {
			return runs{command: fmt.Sprintf("%s -m flask --app %s run --port %d", python, module, port)}
		}
	default:
		return nil
	}
	pl.detect(p)
	return p
}

// fastapiCLI matches a requirement of FastAPI's CLI: fastapi[standard]
// (which brings it) or fastapi-cli itself.
var fastapiCLI = lazyregexp.New(`(?im)^\s*"?(fastapi\[[^\]]*standard[^\]]*\]|fastapi-cli)`)

// fileMatches reports whether the file exists and matches the regexp.
func fileMatches(file, pattern string) bool {
	return regexp.MustCompile(pattern).MatchString(readAll(file))
}

// readAll is the file's text, empty when it cannot be read.
func readAll(file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	return string(data)
}
