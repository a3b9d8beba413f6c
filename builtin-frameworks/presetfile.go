package frameworks

import (
	"bytes"
	"fmt"
	"slices"
	"time"

	"go.yaml.in/yaml/v3"
)

// presetFile is the YAML form of a preset.
type presetFile struct {
	// AgentPatterns sit beside readyPatterns in the file.
	AgentPatterns `yaml:",inline"`

	Name              string            `yaml:"name"`
	Description       string            `yaml:"description"`
	Category          string            `yaml:"category"`
	Detect            detectFile        `yaml:"detect"`
	ReadyPatterns     []string          `yaml:"readyPatterns"`
	ErrorPatterns     []string          `yaml:"errorPatterns"`
	NotReadyPatterns  []string          `yaml:"notReadyPatterns"`
	ReloadPatterns    []string          `yaml:"reloadPatterns"`
	RecoveredPatterns []string          `yaml:"recoveredPatterns"`
	DefaultPort       int               `yaml:"defaultPort"`
	PortFlag          string            `yaml:"portFlag"`
	PortEnv           string            `yaml:"portEnv"`
	PortArgAfter      string            `yaml:"portArgAfter"`
	DefaultHost       string            `yaml:"defaultHost"`
	HostFlags         []string          `yaml:"hostFlags"`
	HostEnv           string            `yaml:"hostEnv"`
	Env               map[string]string `yaml:"env"`
	ReadyTimeout      string            `yaml:"readyTimeout"`
	StabilityDelay    string            `yaml:"stabilityDelay"`
	// DaemonizesUnless: see Preset.DaemonizesUnless.
	DaemonizesUnless []string `yaml:"daemonizesUnless"`
	// StabilityEvidence: see Preset.StabilityEvidence.
	StabilityEvidence []string `yaml:"stabilityEvidence"`
	Interactive       bool     `yaml:"interactive"`
	// ReadyWhenListening: see Preset.ReadyWhenListening.
	ReadyWhenListening bool `yaml:"readyWhenListening"`
	// ReadyLineBeforeListen: see Preset.ReadyLineBeforeListen.
	ReadyLineBeforeListen bool `yaml:"readyLineBeforeListen"`
	// Probe: see Preset.Probe.
	Probe *probeFile `yaml:"probe"`
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
	Loaded      bool        `yaml:"loaded"`
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

// parsePreset decodes one preset file and checks its fields; its patterns
// are checked by checkPatterns. procs decodes the embedded presets at every
// start, so this is the quick decoder already linked for procs.yaml's
// layers, not the one that keeps positions for config errors.
func parsePreset(data []byte) (*Preset, error) {
	var f presetFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	p := &Preset{
		Name:                  f.Name,
		Description:           f.Description,
		Category:              f.Category,
		ReadyPatterns:         f.ReadyPatterns,
		ErrorPatterns:         f.ErrorPatterns,
		NotReadyPatterns:      f.NotReadyPatterns,
		ReloadPatterns:        f.ReloadPatterns,
		RecoveredPatterns:     f.RecoveredPatterns,
		DefaultPort:           f.DefaultPort,
		PortFlag:              f.PortFlag,
		PortEnv:               f.PortEnv,
		PortArgAfter:          f.PortArgAfter,
		DefaultHost:           f.DefaultHost,
		HostFlags:             f.HostFlags,
		HostEnv:               f.HostEnv,
		Env:                   f.Env,
		Interactive:           f.Interactive,
		ReadyWhenListening:    f.ReadyWhenListening,
		ReadyLineBeforeListen: f.ReadyLineBeforeListen,
		Sources:               f.Sources,
		Detect: DetectSpec{
			Command:     f.Detect.Command,
			Runners:     f.Detect.Runners,
			PackageJSON: f.Detect.PackageJSON,
			Loaded:      f.Detect.Loaded,
			Fallback:    f.Detect.Fallback,
			Refines:     f.Detect.Refines,
		},
	}
	for _, g := range f.Detect.Files {
		p.Detect.Files = append(p.Detect.Files, []string(g))
	}
	p.AgentPatterns = f.AgentPatterns
	p.StabilityEvidence = f.StabilityEvidence
	p.DaemonizesUnless = f.DaemonizesUnless
	var err error
	if p.Probe, err = f.Probe.probe(); err != nil {
		return nil, err
	}
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
	return p.AgentPatterns.validate(p.Interactive)
}

// checkPatterns compiles every pattern of the preset. The tests run it on
// every embedded preset; procs does not at its start, where only the
// patterns of the presets a config uses are compiled, by the detector.
func (p *Preset) checkPatterns() error {
	sets := append([]patternSet{
		{"readyPatterns", p.ReadyPatterns},
		{"errorPatterns", p.ErrorPatterns},
		{"notReadyPatterns", p.NotReadyPatterns},
		{"reloadPatterns", p.ReloadPatterns},
		{"recoveredPatterns", p.RecoveredPatterns},
		{"daemonizesUnless", p.DaemonizesUnless},
	}, p.AgentPatterns.sets()...)
	for _, set := range sets {
		if _, err := compileAll(set.patterns); err != nil {
			return fmt.Errorf("%s: %w", set.key, err)
		}
	}
	return nil
}
