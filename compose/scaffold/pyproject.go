package scaffold

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
)

// pyTask is one task of a Python project's task runner: poe's
// [tool.poe.tasks] or PDM's [tool.pdm.scripts].
type pyTask struct {
	name string
	// runner is the program that runs it: poe or pdm.
	runner string
	// command is what it runs, "" when it is not a command (a sequence,
	// a Python function): then only the runner can run it.
	command string
	// envFile is the dotenv file the runner loads for it.
	envFile string
}

// serverTaskNames are the task names that, by convention, start a
// long-running program of the project.
var serverTaskNames = []string{"dev", "serve", "server", "start", "run", "web", "api", "app", "worker", "beat",
	"scheduler", "celery", "runserver", "devserver"}

// workerPresets are the presets of background workers: processes of the
// project even though they serve no port.
var workerPresets = []string{"celery", "dramatiq", "rq", "arq", "sidekiq"}

// pyprojectApps runs the tasks of pyproject.toml in rel that start a
// server or a worker: by their name (dev, worker, beat) or their command
// (one procs knows as a dev server or worker).
func (pl *plan) pyprojectApps(rel string) []*process {
	var out []*process
	for _, t := range readPyTasks(pl.abs(rel)) {
		if t.command == "" {
			continue
		}
		p := pl.pyTaskProcess(rel, t, "")
		if !slices.Contains(serverTaskNames, t.name) && !servesOrWorks(p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// servesOrWorks reports whether p runs a dev server or a background
// worker procs knows.
func servesOrWorks(p *process) bool {
	return p.preset != nil && (p.preset.Category == frameworks.CategoryDevServer || slices.Contains(workerPresets, p.preset.Name))
}

// pyTaskProcess is the process running task t with args: its command in
// the project's environment, so that procs knows what runs; the runner
// itself when the task is no plain command.
func (pl *plan) pyTaskProcess(rel string, t pyTask, args string) *process {
	command := strings.TrimSpace(t.runner + " " + t.name + " " + args)
	if t.command != "" {
		command = strings.TrimSpace(pl.pythonEnv(rel) + t.command + " " + args)
	}
	source := fmt.Sprintf("%s [tool.%s] task %q", path.Join(rel, "pyproject.toml"), t.runner, t.name)
	if t.runner == "pdm" {
		source = fmt.Sprintf("%s [tool.pdm.scripts] %q", path.Join(rel, "pyproject.toml"), t.name)
	}
	p := pl.commandApp(rel, command, source)
	p.name = t.name
	if t.envFile != "" {
		p.notes = append(p.notes, fmt.Sprintf("%s loads %s for this task: add envFile: %s if the program needs it", t.runner, t.envFile, t.envFile))
	}
	return p
}

// pythonEnv is what runs a program of the project's Python environment
// from rel: "uv run ", "poetry run ", ".venv/bin/", or "" (PATH).
func (pl *plan) pythonEnv(rel string) string {
	python := pl.python(rel)
	if python == "python3" {
		return ""
	}
	return strings.TrimSuffix(python, "python")
}

// readPyTasks reads the poe and PDM tasks of pyproject.toml in dir,
// sorted by name.
func readPyTasks(dir string) []pyTask {
	var file struct {
		Tool struct {
			Poe struct {
				Tasks map[string]any `toml:"tasks"`
			} `toml:"poe"`
			PDM struct {
				Scripts map[string]any `toml:"scripts"`
			} `toml:"pdm"`
		} `toml:"tool"`
	}
	if _, err := toml.DecodeFile(filepath.Join(dir, "pyproject.toml"), &file); err != nil {
		return nil
	}
	var tasks []pyTask
	for name, v := range file.Tool.Poe.Tasks {
		tasks = append(tasks, readPyTask("poe", name, v, "cmd", "shell"))
	}
	for name, v := range file.Tool.PDM.Scripts {
		if name != "_" { // PDM's shared settings
			tasks = append(tasks, readPyTask("pdm", name, v, "cmd", "shell"))
		}
	}
	sort.Slice(tasks, func(i, j int) bool { return tasks[i].name < tasks[j].name })
	return tasks
}

// readPyTask reads one task: a command string, or a table whose keys
// (cmd, shell) hold one; a multi-line shell script is left to the runner.
func readPyTask(runner, name string, v any, keys ...string) pyTask {
	t := pyTask{name: name, runner: runner}
	switch task := v.(type) {
	case string:
		t.command = task
	case map[string]any:
		for _, key := range keys {
			if t.command != "" {
				break
			}
			switch c := task[key].(type) {
			case string:
				t.command = c
			case []any:
				t.command = joinWords(c)
			}
		}
		t.envFile, _ = task["envfile"].(string)
		if t.envFile == "" {
			t.envFile, _ = task["env_file"].(string)
		}
	}
	if strings.Contains(strings.TrimSpace(t.command), "\n") {
		t.command = ""
	}
	return t
}

// joinWords joins a command given as a list of words.
func joinWords(words []any) string {
	parts := make([]string, 0, len(words))
	for _, w := range words {
		parts = append(parts, fmt.Sprint(w))
	}
	return strings.Join(parts, " ")
}
