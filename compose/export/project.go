package export

import (
	"fmt"
	"maps"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	frameworks "github.com/procsdev/procs/builtin-frameworks"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/internal/lazyregexp"
)

// Project is the part of a config an export carries over: the processes
// chosen, each as procs.yaml declares it (a replicated process once, with
// its count), with what procs works out for it at run time made explicit.
type Project struct {
	// Name names the project in unit, volume and label names: the folder
	// of procs.yaml, lower-cased, or Options.Name.
	Name string
	// Dir is the folder of procs.yaml, absolute.
	Dir string
	// ConfigFile is the base name of the config file (procs.yaml).
	ConfigFile string
	// BaseDir is the folder the files will be written to; paths in them
	// are relative to it where a format allows (compose).
	BaseDir string
	// Procs are the processes exported, by name.
	Procs []*Process
	// Warnings are what the processes use that no format carries over.
	Warnings []Warning
	// Options are the options it was built with.
	Options Options
}

// Options choose what is exported and how.
type Options struct {
	// Names are the processes asked for (with their dependencies); none
	// means what procs up starts with Profiles active.
	Names []string
	// Profiles are the active profiles when no Names are given.
	Profiles []string
	// Name overrides the project name.
	Name string
	// OutDir is the folder the files go to; "" for standard output.
	OutDir string
	// SystemdSystem makes system units (multi-user.target, User=) rather
	// than user units (default.target).
	SystemdSystem bool
	// User is the account system units run as.
	User string
}

// Process is one exported process.
type Process struct {
	// Name is its name in procs.yaml.
	Name string
	// Task is true for a one-shot task.
	Task bool
	// Schedule is when a scheduled task runs, nil for any other process.
	Schedule *Schedule
	// Description is its description: from procs.yaml, else its command.
	Description string
	// Command is what it runs; a replicated process's may hold
	// {{.Replica}} (see ReplicaToken).
	Command config.Command
	// Cwd is its working folder, absolute.
	Cwd string
	// Env is what env: gives it (the global env:, then its own), and PORT
	// when it has a port.
	Env map[string]string
	// PresetEnv is what its preset adds, under everything else.
	PresetEnv map[string]string
	// EnvFiles are the env files it reads, absolute, later ones winning:
	// .env beside procs.yaml, the global envFile, its own.
	EnvFiles []string
	// FileEnv is what EnvFiles give it, read now.
	FileEnv map[string]string
	// Port is its port (port:), 0 when none; a replica i listens on Port+i-1.
	Port int
	// Replicas is its number of instances, 0 when it is not replicated.
	Replicas int
	// DependsOn are its dependencies, on exported processes, by name.
	DependsOn []Dependency
	// Restart is its restart policy.
	Restart config.RestartPolicy
	// Shutdown is how it is stopped: signal and timeout.
	Shutdown config.Shutdown
	// Ready is the check that tells it is ready, nil when none is known
	// (a task, or a service ready by running).
	Ready *Check
	// ReadyTimeout is how long it may take to become ready (0: none).
	ReadyTimeout time.Duration
	// Resources are its limits: its own resources: over the top-level one.
	Resources config.Resources
	// Preset is the preset it uses, nil when none.
	Preset *frameworks.Preset
	// Image is the official image of its server, nil when it has none:
	// the user must provide an image for it.
	Image *Image
	// ServicePort is the port its server listens on: Port, else for an
	// image the port its command gives or the preset's default, else for
	// a server whose ready line names its port the port its command gives.
	ServicePort int
	// portGivenBy says where the command gives ServicePort ("--port",
	// "PORT", "argument") when it stands for the preset's ready line.
	portGivenBy string
}

// Dependency is one entry of dependsOn.
type Dependency struct {
	// Name is the process depended on.
	Name string
	// Condition is started, ready or completed.
	Condition config.Condition
	// Restart restarts the dependent with it.
	Restart bool
}

// CheckKind is how a readiness check asks.
type CheckKind string

// The kinds of checks.
const (
	// CheckPort connects to a TCP port.
	CheckPort CheckKind = "port"
	// CheckHTTP gets a URL; a status below 400 passes.
	CheckHTTP CheckKind = "http"
	// CheckExec runs a command; exit 0 passes.
	CheckExec CheckKind = "exec"
)

// Check is a readiness check, the one procs runs: the process's
// healthcheck, its preset's probe, or its port.
type Check struct {
	Kind CheckKind
	// Scheme is an HTTP check's: http or https.
	Scheme string
	// Host and Port are what a port or HTTP check connects to.
	Host string
	Port int
	// Path is the path of an HTTP check (/health).
	Path string
	// Command is the command of an exec check.
	Command config.Command
	// From says where the check comes from, for people ("port: 8765",
	// "healthcheck.http", "the redis preset's probe").
	From string
	// Interval, Timeout and Failures are the healthcheck's, or procs'
	// defaults (5s, 2s, 3).
	Interval, Timeout time.Duration
	Failures          int
}

// URL is the address of an HTTP check.
func (c *Check) URL() string {
	return fmt.Sprintf("%s://%s%s", c.Scheme, net.JoinHostPort(c.Host, strconv.Itoa(c.Port)), c.Path)
}

// ReplicaToken is {{.Replica}} in a replicated process's command and env:
// the instance's number, which a format writes its own way (systemd's %i).
var ReplicaToken = lazyregexp.New(`\{\{\s*\.Replica\s*\}\}`)

// New builds the project of cfg for opts: the processes named (and what
// they depend on), or those procs up starts and the tasks it leaves to
// their schedule. A name that is no process is a
// *config.UnknownProcessError.
func New(cfg *config.Config, opts Options) (*Project, error) {
	groups, err := chosen(cfg, opts)
	if err != nil {
		return nil, err
	}
	p := &Project{
		Name: opts.Name, Dir: cfg.Dir, ConfigFile: cfg.FileName(), BaseDir: cfg.Dir, Options: opts,
	}
	if p.Name == "" {
		p.Name = DNSName(filepath.Base(cfg.Dir))
	}
	if opts.OutDir != "" {
		if p.BaseDir, err = filepath.Abs(opts.OutDir); err != nil {
			return nil, fmt.Errorf("output folder %s: %w", opts.OutDir, err)
		}
	}
	declared := cfg.Declared()
	for _, name := range groups {
		proc, err := newProcess(cfg, declared[name], groups)
		if err != nil {
			return nil, err
		}
		p.Procs = append(p.Procs, proc)
		p.Warnings = append(p.Warnings, leftOut(declared[name], proc)...)
	}
	return p, nil
}

// chosen returns the declared names to export, sorted.
func chosen(cfg *config.Config, opts Options) ([]string, error) {
	var instances []string
	if len(opts.Names) == 0 {
		instances = cfg.UpSet(opts.Profiles)
		// procs up arms the timers of scheduled tasks without starting
		// them: an export runs them on time, so they and their
		// dependencies are in it.
		if roots := scheduledRoots(cfg, opts.Profiles); len(roots) > 0 {
			withDeps, err := cfg.WithDependencies(append(instances, roots...)...)
			if err != nil {
				return nil, err
			}
			instances = slices.DeleteFunc(withDeps, func(name string) bool { return cfg.Procs[name].Disabled })
		}
	} else {
		var err error
		if instances, err = cfg.WithDependencies(cfg.Resolve(groupNames(cfg, opts.Names))...); err != nil {
			return nil, err
		}
	}
	var groups []string
	for _, name := range instances {
		if group := cfg.Procs[name].Group(); !slices.Contains(groups, group) {
			groups = append(groups, group)
		}
	}
	slices.Sort(groups)
	return groups, nil
}

// groupNames maps an instance name (worker-2) to its replicated process:
// an export has one unit per process, not per instance.
func groupNames(cfg *config.Config, names []string) []string {
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = name
		if p := cfg.Procs[name]; p != nil {
			out[i] = p.Group()
		}
	}
	return out
}

// newProcess makes the exported form of the declared process d.
func newProcess(cfg *config.Config, d *config.Proc, exported []string) (*Process, error) {
	p := &Process{
		Name: d.Name, Task: d.IsTask(), Schedule: scheduleOf(d.Schedule), Description: d.Description, Command: d.Command, Cwd: d.Cwd,
		Port: d.Port, Replicas: d.Replicas, Restart: d.Restart, Shutdown: d.Shutdown,
		ReadyTimeout: d.ReadyTimeout.D(), Resources: cfg.ResourcesOf(d),
	}
	if p.Description == "" {
		p.Description = d.Command.String()
	}
	if det, ok := frameworks.Resolve(d.Framework, d.Command.String(), d.Command.Args(), d.Cwd); ok {
		p.Preset = det.Preset
	}
	files, explicit, err := cfg.EnvironmentLayers(d)
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", d.Name, err)
	}
	p.FileEnv = files
	p.Env = map[string]string{}
	if p.Preset != nil {
		p.PresetEnv = p.Preset.Env
		if p.ReadyTimeout == 0 && !p.Task {
			p.ReadyTimeout = p.Preset.ReadyTimeout
		}
	}
	maps.Copy(p.Env, explicit)
	if p.Port > 0 {
		p.Env["PORT"] = fmt.Sprint(p.Port)
	}
	for _, file := range []string{cfg.DotEnv, cfg.EnvFile, d.EnvFile} {
		if file == "" {
			continue
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(cfg.Dir, file)
		}
		if !slices.Contains(p.EnvFiles, file) {
			p.EnvFiles = append(p.EnvFiles, file)
		}
	}
	for _, dep := range declaredDependencies(d.DependsOn) {
		if slices.Contains(exported, dep.Name) {
			p.DependsOn = append(p.DependsOn, Dependency{Name: dep.Name, Condition: dep.Condition, Restart: dep.Restart})
		}
	}
	p.Image = imageFor(p.Preset)
	p.ServicePort = p.Port
	if p.ServicePort == 0 && p.Preset != nil {
		port, from := p.Preset.PortOf(d.Command.String(), d.Env)
		switch {
		case p.Image != nil:
			p.ServicePort = port
		case from != "" && from != "default" && p.Preset.ListensOnItsLinePort() && len(p.Preset.ReadyPatterns) > 0:
			// Under procs the ready line says the port, and no format
			// reads a log: the port the command gives is the check. Not
			// the preset's default, which a config file or script may
			// change, and a wrong check would hold its dependents forever.
			p.ServicePort, p.portGivenBy = port, from
		}
	}
	if !p.Task {
		p.Ready = readyCheck(d, p)
	}
	return p, nil
}

// Environment is what the process gets besides its env files: the
// preset's env under Env.
func (p *Process) Environment() map[string]string {
	out := maps.Clone(p.PresetEnv)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, p.Env)
	return out
}

// AllEnv is everything the config gives the process, in procs' order:
// the preset's env, the env files, then env: and PORT.
func (p *Process) AllEnv() map[string]string {
	out := map[string]string{}
	maps.Copy(out, p.PresetEnv)
	maps.Copy(out, p.FileEnv)
	maps.Copy(out, p.Env)
	return out
}

// declaredDependencies folds the dependencies on the instances of a
// replicated process back into one on it.
func declaredDependencies(deps config.Dependencies) config.Dependencies {
	var out config.Dependencies
	seen := map[string]bool{}
	for _, dep := range deps {
		if dep.Via != "" {
			dep.Name, dep.Via = dep.Via, ""
		}
		if !seen[dep.Name] {
			seen[dep.Name] = true
			out = append(out, dep)
		}
	}
	slices.SortFunc(out, func(a, b config.Dependency) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Proc returns the exported process called name, nil when none is.
func (p *Project) Proc(name string) *Process {
	for _, proc := range p.Procs {
		if proc.Name == name {
			return proc
		}
	}
	return nil
}

// DNSName makes name a DNS label, as Kubernetes and unit names want:
// lower case, letters, digits and '-'.
func DNSName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "procs"
	}
	return out
}

// Rel is path relative to the project's BaseDir, "./"-prefixed, for
// formats whose paths are relative to their file; path itself when it
// lies elsewhere.
func (p *Project) Rel(path string) string {
	rel, err := filepath.Rel(p.BaseDir, path)
	if err != nil {
		return path
	}
	if rel == "." {
		return "."
	}
	if strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return "./" + filepath.ToSlash(rel)
}
