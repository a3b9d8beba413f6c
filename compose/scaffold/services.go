package scaffold

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
)

//go:embed services.yaml
var servicesFile []byte

// serviceTemplate says how to run, as a local process, the server of a
// docker-compose image; see services.yaml.
type serviceTemplate struct {
	// Preset is the built-in preset that runs it; a dev-only tool (a mail
	// catcher, a database UI) has none and names its Port instead.
	Preset string `yaml:"preset"`
	// Name names a template without a preset, for process names.
	Name string `yaml:"name"`
	// Port is the port the image listens on, when no preset says it.
	Port int `yaml:"port"`
	// Optional marks a dev-only tool the app does not need to run.
	Optional bool              `yaml:"optional"`
	Images   []string          `yaml:"images"`
	Data     string            `yaml:"data"`
	Command  string            `yaml:"command"`
	Env      map[string]string `yaml:"env"`
	Notes    []string          `yaml:"notes"`
}

// serviceTemplates are the templates of services.yaml, parsed once.
var serviceTemplates = sync.OnceValue(func() []serviceTemplate {
	templates, err := parseServiceTemplates(servicesFile)
	if err != nil {
		// The file is embedded and checked by tests: a bad one is a
		// build defect, not a runtime condition.
		panic(err)
	}
	return templates
})

func parseServiceTemplates(data []byte) ([]serviceTemplate, error) {
	var file struct {
		Services []serviceTemplate `yaml:"services"`
	}
	if err := yaml.UnmarshalWithOptions(data, &file, yaml.DisallowUnknownField()); err != nil {
		return nil, fmt.Errorf("parse services.yaml: %w", err)
	}
	for _, t := range file.Services {
		if _, ok := frameworks.Lookup(t.Preset); !ok && (t.Preset != "" || t.Name == "" || t.Port == 0) {
			return nil, fmt.Errorf("services.yaml: no preset %q (a template without one needs a name and a port)", t.Preset)
		}
		if len(t.Images) == 0 || t.Command == "" {
			return nil, fmt.Errorf("services.yaml: %s needs images and a command", t.label())
		}
	}
	return file.Services, nil
}

// label names the template: its preset, else its name.
func (t serviceTemplate) label() string {
	if t.Preset != "" {
		return t.Preset
	}
	return t.Name
}

// templateFor returns the template of an image such as
// "docker.io/library/postgres:16-alpine" or "bitnami/redis@sha256:...".
func templateFor(image string) (serviceTemplate, bool) {
	name := imageName(image)
	for _, t := range serviceTemplates() {
		if slices.Contains(t.Images, name) {
			return t, true
		}
	}
	return serviceTemplate{}, false
}

// imageName is the last part of an image's repository, without its
// registry, tag or digest, in lower case.
func imageName(image string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(image), "@")
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name, _, _ = strings.Cut(name, ":")
	return strings.ToLower(name)
}

// fill replaces {port} and {data} in s.
func fill(s string, port int, data string) string {
	return strings.NewReplacer("{port}", strconv.Itoa(port), "{data}", data).Replace(s)
}
