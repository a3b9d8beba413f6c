package scaffold

import (
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// goApp runs the main package of the Go module in rel with go run: the
// module's own folder, else the first cmd/NAME.
func (pl *plan) goApp(rel string) *process {
	dir := pl.abs(rel)
	if !exists(dir, "go.mod") {
		return nil
	}
	target := "."
	if !isMainPackage(dir) {
		commands := mainCommands(dir)
		if len(commands) == 0 {
			commands = mainFolders(dir)
		}
		if len(commands) == 0 {
			pl.skip("%s: no main package (a library?), so nothing to run", path.Join(rel, "go.mod"))
			return nil
		}
		target = "./" + commands[0]
		if len(commands) > 1 {
			pl.skip("%s: also has %s; add them if they serve", path.Join(rel, "go.mod"), strings.Join(baseNames(commands[1:]), ", "))
		}
	}
	p := &process{
		// The program listens on PORT if it reads it, as Go servers often do.
		run:     func(int) runs { return runs{command: "go run " + target} },
		cwd:     rel,
		movable: true,
		source:  path.Join(rel, "go.mod"),
		kind:    "go",
		watch:   goWatch(rel),
	}
	pl.detect(p)
	if p.preset != nil && p.preset.DefaultPort != 0 {
		p.port, p.portNote = p.preset.DefaultPort, p.preset.Name+"'s default"
	}
	return p
}

// goWatch is what restarts a go run of the module in rel: its Go files
// and go.mod, relative to procs.yaml (path.Join drops an empty rel).
func goWatch(rel string) []string {
	return []string{path.Join(rel, "**/*.go"), path.Join(rel, "go.mod")}
}

// isMainPackage reports whether dir holds a Go package main.
func isMainPackage(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly)
		if err == nil && f.Name.Name == "main" {
			return true
		}
	}
	return false
}

// mainCommands lists the folders cmd/NAME of dir that hold a package main.
func mainCommands(dir string) []string {
	entries, err := os.ReadDir(filepath.Join(dir, "cmd"))
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && isMainPackage(filepath.Join(dir, "cmd", e.Name())) {
			names = append(names, "cmd/"+e.Name())
		}
	}
	return names
}

// mainFolders lists the folders of dir, one level down, that hold a
// package main (app/, server/), for modules without cmd/.
func mainFolders(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && isMainPackage(filepath.Join(dir, e.Name())) {
			names = append(names, e.Name())
		}
	}
	return names
}

// baseNames are the last elements of slash-separated paths.
func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = path.Base(p)
	}
	return out
}
