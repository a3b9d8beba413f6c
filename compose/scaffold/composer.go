package scaffold

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// composerDevScripts are the composer.json scripts that start a project
// for development, in the order init prefers them (Laravel 11's dev).
var composerDevScripts = []string{"dev", "start", "serve"}

// composerApps runs, as one process each, the commands of the dev script
// of composer.json in rel when it starts several (Laravel 11: artisan
// serve, queue:listen, pail and npm run dev through concurrently).
func (pl *plan) composerApps(rel string) []*process {
	scripts := readComposerScripts(pl.abs(rel))
	for _, name := range composerDevScripts {
		for _, step := range scripts[name] {
			if procs := pl.parallelApps(rel, "composer.json", name, step, "npm"); len(procs) > 0 {
				return procs
			}
		}
	}
	return nil
}

// readComposerScripts reads the scripts of composer.json in dir: each a
// list of steps (a script may be one string). Composer's @php is php.
func readComposerScripts(dir string) map[string][]string {
	data := readAll(filepath.Join(dir, "composer.json"))
	var file struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if data == "" || json.Unmarshal([]byte(data), &file) != nil {
		return nil
	}
	out := map[string][]string{}
	for name, raw := range file.Scripts {
		var steps []string
		var one string
		if json.Unmarshal(raw, &one) == nil {
			steps = []string{one}
		} else if json.Unmarshal(raw, &steps) != nil {
			continue
		}
		for i, step := range steps {
			steps[i] = strings.TrimPrefix(strings.TrimSpace(step), "@")
		}
		out[name] = steps
	}
	return out
}
