// Package scaffold writes a first procs.yaml for a project, from what its
// folder holds: the README's commands, package.json, composer.json,
// deno.json and pyproject.toml scripts, manage.py, a Gemfile, go.mod, the
// services of docker-compose.yml whose images procs knows how to run, and
// a Procfile. It is what `procs init` runs; the result is commented for the
// user to review, and always loads with config.Load.
//
// It imports compose/config and schema to check what it writes and builtin-frameworks to recognise
// what it finds, never the engine or the control plane.
package scaffold

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/procsdev/procs/compose/config"
)

// ErrNothingFound is returned by Generate when the folder holds nothing it
// knows how to run.
var ErrNothingFound = errors.New("found nothing to run in this folder (no README command init knows, package.json, composer.json or deno.json dev or start script, package.json storybook script, pyproject.toml poe or PDM task that serves, manage.py, a FastAPI or Flask main.py/app.py, Gemfile, mix.exs with Phoenix, artisan, Spring Boot pom.xml or build.gradle, hugo.toml, go.mod with a main package, docker-compose.yml service with a known image, or Procfile)")

// ErrNoProcfile is returned by Generate with FromProcfile when the folder
// has no Procfile.
var ErrNoProcfile = errors.New("no Procfile in this folder")

// Options says which project to look at and how.
type Options struct {
	// Dir is the project folder; procs.yaml is written for it.
	Dir string
	// FromProcfile converts the Procfile only, ignoring every other file.
	FromProcfile bool
}

// Result is a generated procs.yaml and what it holds.
type Result struct {
	// YAML is the commented procs.yaml.
	YAML []byte
	// Procs describes each process written, in file order.
	Procs []Summary
	// Skipped lists what was found but not written, each with its reason.
	Skipped []string
}

// Summary says what one generated process runs and why init chose it.
type Summary struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	// Why names the file it came from and the preset detected, if any.
	Why string `json:"why"`
}

// Generate looks at opts.Dir and returns the procs.yaml to write there. A
// broken Procfile is returned as config.ConfigErrors.
func Generate(opts Options) (*Result, error) {
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("generate procs.yaml: %w", err)
	}
	p := &plan{dir: dir}
	procfile, err := p.addProcfile()
	if err != nil {
		return nil, err
	}
	switch {
	case opts.FromProcfile && !procfile:
		return nil, ErrNoProcfile
	case opts.FromProcfile:
	default:
		p.addComposeServices()
		if !procfile {
			guessed := len(p.procs)
			p.addApps()
			p.dropCoveredApps(guessed)
			p.restoreDeployWeb(guessed)
			p.addMigrations()
			p.addReadmeCommands()
			p.shareMigrations()
			p.linkWorkspaceBuilds()
			p.applyProjectPorts()
		}
	}
	p.decideSomething()
	if len(p.procs) == 0 {
		return nil, ErrNothingFound
	}
	p.checkEnvFile()
	p.order()
	p.assignPorts()
	p.inferDependencies()
	res := &Result{YAML: p.render(schemaRef(dir)), Skipped: p.skipped}
	for _, proc := range p.procs {
		res.Procs = append(res.Procs, Summary{Name: proc.name, Command: proc.commandLine(), Why: proc.why()})
	}
	// A generated file that does not load would be a defect of init; say
	// so rather than write it.
	if _, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{}); err != nil {
		return nil, fmt.Errorf("check the generated procs.yaml (a bug in procs init, please report it): %w", err)
	}
	return res, nil
}
