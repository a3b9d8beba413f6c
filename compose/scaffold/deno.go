package scaffold

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"slices"

	frameworks "github.com/procsdev/procs/builtin-frameworks"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// denoPort is where Deno.serve, and so Fresh 1, listens by default.
const denoPort = 8000

// denoTasks are the deno.json tasks that start a dev server, in the order
// init prefers them.
var denoTasks = []string{"dev", "start", "serve"}

// denoApp runs the dev (or start, or serve) task of deno.json or
// deno.jsonc in rel with deno task, as Fresh and other Deno apps document.
func (pl *plan) denoApp(rel string) *process {
	file, tasks := readDenoTasks(pl.abs(rel))
	i := slices.IndexFunc(denoTasks, func(t string) bool { return tasks[t] != "" })
	if i < 0 {
		return nil
	}
	name := denoTasks[i]
	command := "deno task " + name
	p := &process{
		run:    func(int) runs { return runs{command: command} },
		cwd:    rel,
		source: fmt.Sprintf("%s task %q", path.Join(rel, file), name),
		kind:   "deno",
		script: tasks[name],
	}
	pl.detect(p)
	p.port, p.portNote, p.ownPort = denoPort, "Deno.serve's default", denoPort
	// A task that runs another dev server (Fresh 2 runs vite) listens
	// where that server does.
	if det, ok := frameworks.Detect(tasks[name], nil, pl.abs(rel)); ok && det.Preset.Name != "deno" && det.Preset.DefaultPort != 0 {
		p.port, p.portNote, p.ownPort = det.Preset.DefaultPort, det.Preset.Name+"'s default", det.Preset.DefaultPort
	}
	if port := scriptPort(tasks[name]); port != 0 {
		p.port, p.portNote, p.portFixed = port, fmt.Sprintf("in the %s task", name), true
	}
	return p
}

// jsoncNoise matches what JSON with comments adds to JSON: comments
// outside strings, and commas before a closing bracket.
var jsoncNoise = lazyregexp.New(`("(?:[^"\\]|\\.)*")|//[^\n]*|/\*(?s:.*?)\*/|,(\s*[}\]])`)

// readDenoTasks reads the tasks of deno.json or deno.jsonc in dir: each
// a command, or an object with one (Deno 2). It returns the file's name.
func readDenoTasks(dir string) (string, map[string]string) {
	for _, name := range []string{"deno.json", "deno.jsonc"} {
		data := readAll(filepath.Join(dir, name))
		if data == "" {
			continue
		}
		data = jsoncNoise.ReplaceAllString(data, "$1$2")
		var file struct {
			Tasks map[string]json.RawMessage `json:"tasks"`
		}
		if json.Unmarshal([]byte(data), &file) != nil {
			continue
		}
		tasks := map[string]string{}
		for task, raw := range file.Tasks {
			var command string
			var object struct {
				Command string `json:"command"`
			}
			if json.Unmarshal(raw, &command) != nil && json.Unmarshal(raw, &object) == nil {
				command = object.Command
			}
			tasks[task] = command
		}
		return name, tasks
	}
	return "", nil
}
