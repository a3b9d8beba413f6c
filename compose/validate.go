package compose

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// defaultShutdownTimeout is how long a process gets to stop before SIGKILL.
const defaultShutdownTimeout = 10 * time.Second

// validator applies defaults and checks what spans several processes:
// dependencies, cycles, ports and folders.
type validator struct {
	p   *problems
	d   *decoder
	cfg *Config
	// declared lists every process name in the config, valid or not.
	declared []string
}

func (v *validator) run() {
	if v.cfg.EnvFile != "" {
		v.cfg.EnvFile = v.abs(v.cfg.EnvFile)
	}
	for _, name := range v.cfg.Names() {
		v.defaults(v.cfg.Procs[name])
	}
	v.dependencies()
	v.dependencyCycles()
	v.ports()
}

func (v *validator) abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(v.cfg.Dir, path)
}

// defaults fills the unset fields of p and makes its paths absolute.
func (v *validator) defaults(p *Proc) {
	if p.Kind == "" {
		p.Kind = KindService
	}
	if p.Framework == "" {
		p.Framework = "auto"
	}
	if p.Restart.Policy == "" {
		p.Restart.Policy = RestartNo
	}
	if p.Shutdown.Signal == "" {
		p.Shutdown.Signal = "SIGTERM"
	}
	if p.Shutdown.Timeout == 0 {
		p.Shutdown.Timeout = Duration(defaultShutdownTimeout)
	}
	if p.EnvFile != "" {
		p.EnvFile = v.abs(p.EnvFile)
	}
	if p.Cwd == "" {
		p.Cwd = v.cfg.Dir
		return
	}
	written := p.Cwd
	p.Cwd = v.abs(p.Cwd)
	info, err := os.Stat(p.Cwd)
	path := []string{"procs", p.Name, "cwd"}
	switch {
	case err != nil && os.IsNotExist(err):
		v.p.atValue(path, "folder %s does not exist: create it or fix cwd", written)
	case err != nil:
		v.p.atValue(path, "cannot use folder %s: %v", written, err)
	case !info.IsDir():
		v.p.atValue(path, "%s is not a folder: cwd must name a folder", written)
	}
}

// dependencies checks each dependsOn entry names another, suitable process.
func (v *validator) dependencies() {
	for _, name := range v.cfg.Names() {
		for _, dep := range v.cfg.Procs[name].DependsOn {
			path := v.d.depPaths[[2]string{name, dep.Name}]
			target, decoded := v.cfg.Procs[dep.Name]
			switch {
			case dep.Name == name:
				v.p.atKey(path, "%s depends on itself: remove this entry", name)
			case !slices.Contains(v.declared, dep.Name):
				v.p.atKey(path, "unknown process %q%s: dependsOn must name a process under procs:",
					dep.Name, didYouMean(dep.Name, v.declared))
			case dep.Condition == ConditionCompleted && decoded && !target.IsTask():
				v.p.atValue(path, "condition completed needs %s to be a task: add kind: task to %s, or wait for ready",
					dep.Name, dep.Name)
			}
		}
	}
}

// dependencyCycles reports each cycle once, at its first dependsOn entry.
func (v *validator) dependencyCycles() {
	for _, cycle := range v.cfg.cycles() {
		path := v.d.depPaths[[2]string{cycle[0], cycle[1]}]
		v.p.atKey(path, "dependency cycle: %s: remove one of these dependsOn entries", strings.Join(cycle, " → "))
	}
}

// ports checks that no two enabled processes declare the same port.
func (v *validator) ports() {
	owner := map[int]string{}
	for _, name := range v.cfg.Names() {
		p := v.cfg.Procs[name]
		if p.Port == 0 || p.Disabled {
			continue
		}
		if first, taken := owner[p.Port]; taken {
			v.p.atValue([]string{"procs", name, "port"}, "port %d is also used by %s: give each process its own port", p.Port, first)
			continue
		}
		owner[p.Port] = name
	}
}
