package scaffold

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// skipDirs are subfolders that hold no app of their own, or only ones
// nobody runs in development (examples, fixtures).
var skipDirs = []string{"assets", "bin", "build", "config", "coverage", "db", "dist", "docs", "example", "examples",
	"fixtures", "lib", "log", "logs", "migrations", "node_modules", "out", "public", "scripts", "spec", "static",
	"target", "test", "testdata", "tests", "tmp", "vendor"}

// appFinder looks for one kind of app in a folder (rel to the project,
// slash-separated) and returns it, or nil.
type appFinder func(pl *plan, rel string) *process

// appFinders run in this order, so a Django or Rails project with a
// package.json for its assets is named after its server.
var appFinders = []appFinder{(*plan).djangoApp, (*plan).pythonWebApp, (*plan).rubyApp, (*plan).phoenixApp,
	(*plan).laravelApp, (*plan).hugoApp, (*plan).goApp, (*plan).springApp, (*plan).denoApp, (*plan).nodeApp,
	(*plan).storybookApp}

// scriptFinders read the project's own task runners (composer.json,
// pyproject.toml, package.json), whose scripts may start several
// programs: they run before appFinders, whose guess for a stack gives way
// to what the project's scripts say.
var scriptFinders = []func(pl *plan, rel string) []*process{(*plan).composerApps, (*plan).nodeParallelApps,
	(*plan).pyprojectApps}

// addApps adds the apps of the project folder and of its subfolders one
// level down (web/, api/...) and its package.json workspaces.
func (pl *plan) addApps() {
	root := pl.findApps("")
	var nested []*process
	for _, rel := range pl.appDirs() {
		nested = append(nested, pl.findApps(rel)...)
	}
	for _, p := range root {
		// A root script that names no server (concurrently), or that runs
		// the workspace's scripts (turbo dev, pnpm -r dev), starts the apps
		// found below, which get processes of their own.
		if (p.preset == nil || startsWorkspace(p.script)) && (len(nested) > 0 || pl.hasWorkspaces()) {
			runs := p.commandLine()
			if p.script != "" {
				runs = p.script
			}
			pl.skip("%s: runs %q, which starts the apps below; they have processes of their own", p.source, runs)
			continue
		}
		pl.add(p, "web", presetName(p), p.kind)
	}
	for _, p := range nested {
		folder := path.Base(p.cwd)
		pl.add(p, folder, folder+"-"+presetName(p), folder+"-"+p.kind)
	}
}

// findApps runs every finder on the folder rel: the script finders, then
// the app finders whose app the scripts do not already run.
func (pl *plan) findApps(rel string) []*process {
	var found []*process
	for _, find := range scriptFinders {
		found = append(found, find(pl, rel)...)
	}
	fromScripts := len(found) > 0
	for _, find := range appFinders {
		p := find(pl, rel)
		if p == nil || (fromScripts && (runsSame(found, p) || splitParallel(p.script, "npm") != nil)) {
			continue
		}
		found = append(found, p)
	}
	return found
}

// runsSame reports whether one of procs already runs what p runs: the
// same command or program (python manage.py run and python3 manage.py
// run), or the same preset, in the same folder.
func runsSame(procs []*process, p *process) bool {
	return slices.ContainsFunc(procs, func(q *process) bool {
		return q.cwd == p.cwd && (q.commandLine() == p.commandLine() || sameProgram(q.commandLine(), p.commandLine()) ||
			(q.preset != nil && p.preset != nil && q.preset.Name == p.preset.Name))
	})
}

// appDirs lists the folders to look in besides the project folder: the
// package.json workspaces, then each subfolder not in skipDirs, sorted.
func (pl *plan) appDirs() []string {
	dirs := pl.workspaceDirs()
	entries, err := os.ReadDir(pl.dir)
	if err != nil {
		return dirs
	}
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || slices.Contains(skipDirs, name) {
			continue
		}
		if !slices.Contains(dirs, name) {
			dirs = append(dirs, name)
		}
	}
	return dirs
}

func presetName(p *process) string {
	if p.preset == nil {
		return ""
	}
	return p.preset.Name
}

// abs is the absolute path of the project folder rel.
func (pl *plan) abs(rel string) string {
	return filepath.Join(pl.dir, filepath.FromSlash(rel))
}
