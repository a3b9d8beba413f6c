package frameworks

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

//go:embed presets/*.yaml
var presetFiles embed.FS

// catalog is the parsed set of embedded presets.
type catalog struct {
	sorted []*Preset
	byName map[string]*Preset
	// commands holds each preset's compiled detect.command regexes.
	commands map[string][]commandPattern
	// runtimes holds the preset of each runtime for the programs that
	// run on it (runtimeVariant), by the runtime's name.
	runtimes map[string]*Preset
}

var loaded = sync.OnceValue(func() *catalog {
	c, err := loadCatalog(presetFiles, "presets")
	if err != nil {
		// The files are embedded and validated by tests: a bad one is a
		// build defect, not a runtime condition.
		panic(err)
	}
	return c
})

// Warm decodes the catalog in the background, for a caller that will
// detect soon and has other work first (procs loading its config).
func Warm() { go loaded() }

// loadCatalog parses every *.yaml file in dir of fsys.
func loadCatalog(fsys fs.FS, dir string) (*catalog, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read presets: %w", err)
	}
	c := &catalog{byName: map[string]*Preset{}, commands: map[string][]commandPattern{}}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".yaml") {
			continue
		}
		file := path.Join(dir, e.Name())
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, fmt.Errorf("read preset %s: %w", file, err)
		}
		p, err := parsePreset(data)
		if err != nil {
			return nil, fmt.Errorf("preset %s: %w", file, err)
		}
		if want := strings.TrimSuffix(e.Name(), ".yaml"); p.Name != want {
			return nil, fmt.Errorf("preset %s: name %q does not match the file name %q", file, p.Name, want)
		}
		if _, dup := c.byName[p.Name]; dup {
			return nil, fmt.Errorf("preset %s: duplicate name %q", file, p.Name)
		}
		cmds, err := compileCommands(p.Detect.Command)
		if err != nil {
			return nil, fmt.Errorf("preset %s: detect.command: %w", file, err)
		}
		c.byName[p.Name] = p
		c.commands[p.Name] = cmds
		c.sorted = append(c.sorted, p)
	}
	sort.Slice(c.sorted, func(i, j int) bool { return c.sorted[i].Name < c.sorted[j].Name })
	for _, p := range c.sorted {
		if base := p.Detect.Refines; base != "" && c.byName[base] == nil {
			return nil, fmt.Errorf("preset %s: detect.refines: no preset %q", p.Name, base)
		}
	}
	c.runtimes = map[string]*Preset{}
	for runtime, name := range runtimePresets {
		if p := c.byName[name]; p != nil {
			c.runtimes[runtime] = runtimeVariant(p)
		}
	}
	return c, nil
}
