// Package frameworks holds the built-in presets: how to recognise a common
// server or tool and how it says it is ready or has failed.
//
// Each preset is one YAML file in presets/, embedded in the binary and
// loaded once. Patterns are RE2 regexes matched against the ANSI-stripped
// text of each output line, and each comes from the real output of the
// program (captures in testdata/captures, or the program's source).
//
// # Detection
//
// Detect picks the preset of a process from its command line and its
// working directory, in this order; the first step that finds a preset wins:
//
//  1. The command: a preset's detect.command regexes are matched against the
//     command line, after `sh -c '...'`, `su -c '...'`, leading VAR=value
//     assignments, wrappers (sudo, runuser, setpriv, env, nice, timeout,
//     exec, npx, bundle exec, uv run, poetry run, ...) and `cd DIR &&` are
//     taken off (so `cd web && vite` is the command `vite` in ./web). A
//     match must start in the program's own word, or for an interpreter
//     (python, node, ruby, php, java, mvn, ...) in its options up to its
//     script or module: an option's value never names the program
//     (`psql -U postgres` is not the server), and a client tool (psql,
//     initdb, redis-cli, mysql, ...) gets no preset at all. When several
//     presets match, the match that starts earliest wins, then the longest.
//  2. package.json in the working directory: `npm run X`, `npm start`,
//     `yarn X`, `pnpm X` and `bun run X` run the script X, whose own command
//     goes through step 1 (`npm run dev` → "next dev" → nextjs); a script
//     that names no preset, or a package-manager or node command, falls back
//     to the dependencies and devDependencies (detect.packageJson).
//     `npx X`, `bunx X`, `pnpm dlx X` and `yarn dlx X` are the command X.
//  3. Files in the working directory (detect.files: any group, every file of
//     the group), only when the command's program is one of the preset's
//     detect.runners, so that `sleep 1` in a Django project is not Django.
//  4. Fallback presets (detect.fallback: true), whose command regexes name a
//     bare runtime (`node app.js`) and so must not beat what package.json
//     or the files say.
//
// A command that none of these recognise (`sh -c 'sleep 1'` in a plain
// folder) detects nothing.
package frameworks

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/goccy/go-yaml"
)

//go:embed presets/*.yaml
var presetFiles embed.FS

// Categories a preset can have.
const (
	CategoryDevServer = "dev-server"
	CategoryService   = "service"
	CategoryGeneric   = "generic"
)

// Preset is a built-in description of one program: how to recognise it and
// how its output says it is ready or has failed.
type Preset struct {
	Name        string
	Description string
	// Category is dev-server, service or generic.
	Category string
	Detect   DetectSpec
	// AgentPatterns classify the screen of an interactive program.
	AgentPatterns
	// ReadyPatterns, ErrorPatterns and NotReadyPatterns are RE2 regexes
	// matched against the ANSI-stripped text of each line.
	ReadyPatterns    []string
	ErrorPatterns    []string
	NotReadyPatterns []string
	// DefaultPort is the port the program listens on when not told (0: none).
	DefaultPort int
	// PortFlag is the flag that sets the port (e.g. "--port"), PortEnv the
	// environment variable (e.g. "PORT"); either may be empty.
	PortFlag string
	PortEnv  string
	// Env is added to the process environment (under its own env).
	Env map[string]string
	// ReadyTimeout is how long the program may take to become ready.
	ReadyTimeout time.Duration
	// StabilityDelay is how long it must stay ready-and-error-free, for
	// programs known to print their ready line and then fail.
	StabilityDelay time.Duration
	// Interactive marks programs driven through a PTY (agent CLIs, shells).
	Interactive bool
	// ReadyWhenListening marks programs that may print nothing when ready
	// (nginx, memcached, a net/http server): for a process with no port,
	// ready rule or ready pattern of its own, its process tree listening
	// on a TCP port counts as ready, as a ready line does.
	ReadyWhenListening bool
	// AssumeReadyAfter is for generic runtimes (go run, node app.js), which
	// may run a server or a worker: a process with no readiness setting of
	// its own that has shown no ready line, no listening port and no error
	// after this long is assumed ready, instead of failing a timeout.
	AssumeReadyAfter time.Duration
	// Sources says where the patterns come from: captures recorded here
	// ("captures redis/*"), shared fixtures, or the program's source files.
	Sources []string
}

// DetectSpec says how to recognise a preset's program.
type DetectSpec struct {
	// Command holds regexes matched against the command line.
	Command []string
	// Files holds groups of paths relative to the working directory; a
	// group matches when all of its files exist.
	Files [][]string
	// Runners are the programs (base names) that may run a project found by
	// Files, e.g. python for manage.py.
	Runners []string
	// PackageJSON names npm packages in dependencies or devDependencies.
	PackageJSON []string
	// Fallback defers the Command regexes until after package.json and
	// files, for regexes that only name a runtime.
	Fallback bool
	// Refines names a preset this one specialises: when detection picks
	// that one in a project whose package.json names one of PackageJSON,
	// it picks this one (SvelteKit runs `vite dev`).
	Refines string
}

// All returns every built-in preset, sorted by name. Callers must not
// modify them.
func All() []*Preset {
	return loaded().sorted
}

// Lookup returns the preset called name.
func Lookup(name string) (*Preset, bool) {
	p, ok := loaded().byName[name]
	return p, ok
}

// Known reports whether name is a built-in preset, or one of the special
// values "auto" and "none".
func Known(name string) bool {
	if name == "auto" || name == "none" || name == "" {
		return true
	}
	_, ok := Lookup(name)
	return ok
}

// Names lists the built-in presets in sorted order.
func Names() []string {
	presets := All()
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return names
}

// catalog is the parsed set of embedded presets.
type catalog struct {
	sorted []*Preset
	byName map[string]*Preset
	// commands holds each preset's compiled detect.command regexes.
	commands map[string][]commandPattern
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
	return c, nil
}

// presetFile is the YAML form of a preset.
type presetFile struct {
	// AgentPatterns sit beside readyPatterns in the file.
	AgentPatterns `yaml:",inline"`

	Name             string            `yaml:"name"`
	Description      string            `yaml:"description"`
	Category         string            `yaml:"category"`
	Detect           detectFile        `yaml:"detect"`
	ReadyPatterns    []string          `yaml:"readyPatterns"`
	ErrorPatterns    []string          `yaml:"errorPatterns"`
	NotReadyPatterns []string          `yaml:"notReadyPatterns"`
	DefaultPort      int               `yaml:"defaultPort"`
	PortFlag         string            `yaml:"portFlag"`
	PortEnv          string            `yaml:"portEnv"`
	Env              map[string]string `yaml:"env"`
	ReadyTimeout     string            `yaml:"readyTimeout"`
	StabilityDelay   string            `yaml:"stabilityDelay"`
	Interactive      bool              `yaml:"interactive"`
	// ReadyWhenListening: see Preset.ReadyWhenListening.
	ReadyWhenListening bool `yaml:"readyWhenListening"`
	// AssumeReadyAfter: see Preset.AssumeReadyAfter.
	AssumeReadyAfter string `yaml:"assumeReadyAfter"`
	// Sources says where the patterns come from; documentation only.
	Sources []string `yaml:"sources"`
}

type detectFile struct {
	Command     []string    `yaml:"command"`
	Files       []fileGroup `yaml:"files"`
	Runners     []string    `yaml:"runners"`
	PackageJSON []string    `yaml:"packageJson"`
	Fallback    bool        `yaml:"fallback"`
	Refines     string      `yaml:"refines"`
}

// fileGroup is one entry of detect.files: a path, or a list of paths that
// must all exist.
type fileGroup []string

// UnmarshalYAML accepts a single path or a list of paths.
func (g *fileGroup) UnmarshalYAML(unmarshal func(any) error) error {
	var one string
	if err := unmarshal(&one); err == nil {
		*g = fileGroup{one}
		return nil
	}
	var many []string
	if err := unmarshal(&many); err != nil {
		return fmt.Errorf("files: want a path or a list of paths: %w", err)
	}
	*g = many
	return nil
}

// parsePreset decodes and checks one preset file.
func parsePreset(data []byte) (*Preset, error) {
	var f presetFile
	if err := yaml.UnmarshalWithOptions(data, &f, yaml.DisallowUnknownField()); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	p := &Preset{
		Name:               f.Name,
		Description:        f.Description,
		Category:           f.Category,
		ReadyPatterns:      f.ReadyPatterns,
		ErrorPatterns:      f.ErrorPatterns,
		NotReadyPatterns:   f.NotReadyPatterns,
		DefaultPort:        f.DefaultPort,
		PortFlag:           f.PortFlag,
		PortEnv:            f.PortEnv,
		Env:                f.Env,
		Interactive:        f.Interactive,
		ReadyWhenListening: f.ReadyWhenListening,
		Sources:            f.Sources,
		Detect: DetectSpec{
			Command:     f.Detect.Command,
			Runners:     f.Detect.Runners,
			PackageJSON: f.Detect.PackageJSON,
			Fallback:    f.Detect.Fallback,
			Refines:     f.Detect.Refines,
		},
	}
	for _, g := range f.Detect.Files {
		p.Detect.Files = append(p.Detect.Files, []string(g))
	}
	p.AgentPatterns = f.AgentPatterns
	var err error
	if p.ReadyTimeout, err = parseDuration("readyTimeout", f.ReadyTimeout); err != nil {
		return nil, err
	}
	if p.StabilityDelay, err = parseDuration("stabilityDelay", f.StabilityDelay); err != nil {
		return nil, err
	}
	if p.AssumeReadyAfter, err = parseDuration("assumeReadyAfter", f.AssumeReadyAfter); err != nil {
		return nil, err
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return p, nil
}

func parseDuration(key, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s: %q is not a duration (e.g. 30s)", key, s)
	}
	return d, nil
}

// validate checks the fields every preset needs.
func (p *Preset) validate() error {
	switch {
	case p.Name == "":
		return fmt.Errorf("name is required")
	case p.Description == "":
		return fmt.Errorf("description is required")
	case !slices.Contains([]string{CategoryDevServer, CategoryService, CategoryGeneric}, p.Category):
		return fmt.Errorf("category %q: want dev-server, service or generic", p.Category)
	case len(p.Detect.Files) > 0 && len(p.Detect.Runners) == 0:
		return fmt.Errorf("detect.files needs detect.runners: the programs that run such a project")
	case p.DefaultPort < 0 || p.DefaultPort > 65535:
		return fmt.Errorf("defaultPort %d is not a port", p.DefaultPort)
	case p.Detect.Refines != "" && len(p.Detect.PackageJSON) == 0:
		return fmt.Errorf("detect.refines needs detect.packageJson: the dependencies that tell the two apart")
	case p.AssumeReadyAfter > 0 && p.ReadyTimeout > 0:
		return fmt.Errorf("assumeReadyAfter and readyTimeout exclude each other: a generic runtime is assumed ready, a server fails its timeout")
	}
	for _, g := range p.Detect.Files {
		if len(g) == 0 {
			return fmt.Errorf("detect.files: empty group")
		}
	}
	for _, set := range []struct {
		key      string
		patterns []string
	}{
		{"readyPatterns", p.ReadyPatterns},
		{"errorPatterns", p.ErrorPatterns},
		{"notReadyPatterns", p.NotReadyPatterns},
	} {
		if _, err := compileAll(set.patterns); err != nil {
			return fmt.Errorf("%s: %w", set.key, err)
		}
	}
	return p.AgentPatterns.validate(p.Interactive)
}
