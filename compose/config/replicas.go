package config

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/procsdev/procs/internal/lazyregexp"
)

// Replica says which instance of a replicated process a process is.
type Replica struct {
	// Of is the name of the replicated process; "" for a process without
	// replicas.
	Of string
	// Index is the instance's number, from 1.
	Index int
}

// MaxReplicas is the most instances a process runs: each is a process
// tree, a log file and a row of every view, and a typo (2000 for 20)
// must not fork thousands of programs.
const MaxReplicas = 256

// replicaVar is the variable procs sets to an instance's number; in a
// replicated process's command and env, ${PROCS_REPLICA} is expanded to it
// as {{.Replica}} is, so a list command (no shell) gets it too.
const replicaVar = "PROCS_REPLICA"

// replicaToken is {{.Replica}}, the instance's number in a replicated
// process's command and env. Only this token is replaced: a command may
// hold other {{...}} text (docker --format '{{.Names}}').
var replicaToken = lazyregexp.New(`\{\{\s*\.Replica\s*\}\}`)

// ReplicaName is the name of instance i of the replicated process name.
func ReplicaName(name string, i int) string { return name + "-" + strconv.Itoa(i) }

// Group is the name a process is known by in procs.yaml: its own, or that
// of the replicated process it is an instance of.
func (p *Proc) Group() string {
	if p.Replica.Of != "" {
		return p.Replica.Of
	}
	return p.Name
}

// Declared returns the processes as procs.yaml declares them, before each
// replicated one is expanded into its instances. It must not be changed.
func (c *Config) Declared() map[string]*Proc {
	if c.declared == nil {
		return c.Procs
	}
	return c.declared
}

// Instances resolves a name given on the command line: a replicated
// process's name is all its instances, in order; any other name is itself.
func (c *Config) Instances(name string) []string {
	p := c.Declared()[name]
	if p == nil || p.Replicas == 0 || c.Procs[name] != nil {
		return []string{name}
	}
	names := make([]string, 0, p.Replicas)
	for i := 1; i <= p.Replicas; i++ {
		names = append(names, ReplicaName(name, i))
	}
	return names
}

// ScaleError is a number of instances that cannot run: fewer than 1, or
// instances whose names or ports would clash with other processes'.
type ScaleError struct{ message string }

// Error says what is wrong and what to do.
func (e *ScaleError) Error() string { return e.message }

// ScalableWhileRunning refuses, as a *ScaleError, a scale that names a
// task while procs runs: its new instances would run it again, at once,
// beside each other (a migration, twice). At the start, procs up --scale
// and replicas: run a task in instances from its first run.
func (c *Config) ScalableWhileRunning(scale map[string]int) error {
	for _, name := range slices.Sorted(maps.Keys(scale)) {
		if p := c.Declared()[name]; p != nil && p.IsTask() {
			return &ScaleError{fmt.Sprintf("scale %s=%d: %s is a task: its instances would run it again, at once, beside each other; "+
				"procs restart %s runs it again, and replicas: in procs.yaml runs a task in instances from the start", name, scale[name], name, name)}
		}
	}
	return nil
}

// Scaled returns a copy of c in which each process named in scale runs
// that many instances, as procs up --scale and procs scale ask; a process
// without replicas scaled to more than one becomes replicated (NAME-1 to
// NAME-N). c is not changed.
func (c *Config) Scaled(scale map[string]int) (*Config, error) {
	scale = withoutNoChange(c.Declared(), scale)
	if len(scale) == 0 {
		return c, nil
	}
	declared := maps.Clone(c.Declared())
	for _, name := range slices.Sorted(maps.Keys(scale)) {
		p, n := declared[name], scale[name]
		switch {
		case p == nil:
			return nil, &UnknownProcessError{Name: name, Known: slices.Sorted(maps.Keys(declared))}
		case n < 1:
			return nil, &ScaleError{fmt.Sprintf("scale %s=%d: a process runs 1 instance or more; procs stop %s stops it", name, n, name)}
		case n > MaxReplicas:
			return nil, &ScaleError{fmt.Sprintf("scale %s=%d: a process runs at most %d instances", name, n, MaxReplicas)}
		case n > 1 && p.portReader != nil:
			at := *p.portReader
			at.Msg = fmt.Sprintf("reads ${PORT}, expanded once, at load, to %d: every instance would read %d there; "+
				"use ${PORT} in a shell command (command: as a string), which expands it in each run, or have the program read PORT from its environment", p.Port, p.Port)
			return nil, &ScaleError{fmt.Sprintf("scale %s=%d: %s", name, n, at.Error())}
		}
		scaled := *p
		scaled.Replicas = n
		declared[name] = &scaled
	}
	if problems := replicaProblems(declared); len(problems) > 0 {
		return nil, &ScaleError{"scale: " + problems[0].message}
	}
	next := *c
	next.declared = declared
	next.Procs = rescaled(c.Procs, declared, scale)
	return &next, nil
}

// withoutNoChange is scale without the processes it leaves as they are: a
// process without replicas already runs its one instance, and scaling it
// to 1 would only stop it and start it again as NAME-1.
func withoutNoChange(declared map[string]*Proc, scale map[string]int) map[string]int {
	out := maps.Clone(scale)
	maps.DeleteFunc(out, func(name string, n int) bool {
		p := declared[name]
		return n == 1 && p != nil && p.Replicas == 0
	})
	return out
}

// rescaled is procs, the processes as they run, with the processes named
// in scale at their new number of instances: the instances kept as they
// run, new ones made from their declared process. Every other process is
// kept as it runs (a definition taken from an edited file since included),
// but for its dependencies on a scaled process, one per instance now.
// procs is not changed.
func rescaled(procs, declared map[string]*Proc, scale map[string]int) map[string]*Proc {
	out := make(map[string]*Proc, len(procs))
	for name, p := range procs {
		if _, ok := scale[p.Group()]; !ok {
			out[name] = p
		}
	}
	for name := range scale {
		d := declared[name]
		deps := expandDependencies(d.DependsOn, declared)
		for i := 1; i <= d.Replicas; i++ {
			instance := ReplicaName(name, i)
			if kept := procs[instance]; kept != nil && kept.Replica.Of == name {
				out[instance] = kept
			} else {
				out[instance] = d.instance(i, deps)
			}
		}
	}
	for name, p := range out {
		deps := declaredDependencies(p.DependsOn)
		if slices.ContainsFunc(deps, func(dep Dependency) bool { _, ok := scale[dep.Name]; return ok }) {
			again := *p
			again.DependsOn = expandDependencies(deps, declared)
			out[name] = &again
		}
	}
	return out
}

// expandReplicas returns the processes to run for declared: each process
// with replicas is replaced by its instances, and each dependency on it by
// one on every instance (Via naming it). declared is not changed.
func expandReplicas(declared map[string]*Proc) map[string]*Proc {
	out := make(map[string]*Proc, len(declared))
	for name, p := range declared {
		deps := expandDependencies(p.DependsOn, declared)
		if p.Replicas == 0 {
			out[name] = p.single(deps)
			continue
		}
		for i := 1; i <= p.Replicas; i++ {
			instance := p.instance(i, deps)
			out[instance.Name] = instance
		}
	}
	return out
}

// single is p, not replicated, with deps as its dependencies: a copy when
// they differ or when {{.Replica}} (or ${PROCS_REPLICA}) is to be removed
// from its command and env, since it is no instance.
func (p *Proc) single(deps Dependencies) *Proc {
	expanded := slices.ContainsFunc(deps, func(dep Dependency) bool { return dep.Via != "" })
	if !expanded && !p.hasReplicaToken() {
		return p
	}
	out := p.numbered("")
	out.DependsOn = deps
	return out
}

// expandDependencies replaces each dependency on a replicated process by
// one on each of its instances, with the same condition.
func expandDependencies(deps Dependencies, declared map[string]*Proc) Dependencies {
	var out Dependencies
	for _, dep := range deps {
		target := declared[dep.Name]
		if target == nil || target.Replicas == 0 {
			out = append(out, dep)
			continue
		}
		for i := 1; i <= target.Replicas; i++ {
			instance := dep
			instance.Name, instance.Via = ReplicaName(dep.Name, i), dep.Name
			out = append(out, instance)
		}
	}
	return out
}

// declaredDependencies undoes expandDependencies: one entry per
// replicated process depended on, whatever its number of instances.
func declaredDependencies(deps Dependencies) Dependencies {
	var out Dependencies
	for _, dep := range deps {
		if dep.Via == "" {
			out = append(out, dep)
			continue
		}
		if len(out) > 0 && out[len(out)-1].Name == dep.Via {
			continue
		}
		dep.Name, dep.Via = dep.Via, ""
		out = append(out, dep)
	}
	return out
}

// instance is instance i of the replicated process p: its number in place
// of {{.Replica}} in the command and env, port+i-1 for its port, and deps
// as its dependencies. What is shared with p is never changed.
func (p *Proc) instance(i int, deps Dependencies) *Proc {
	inst := p.numbered(strconv.Itoa(i))
	inst.Name = ReplicaName(p.Name, i)
	inst.Replica = Replica{Of: p.Name, Index: i}
	inst.Replicas = 0
	inst.DependsOn = deps
	if p.Port > 0 {
		inst.Port = p.Port + i - 1
	}
	return inst
}

// numbered is a copy of p with number in place of {{.Replica}} in its
// command and env.
func (p *Proc) numbered(number string) *Proc {
	fill := func(s string) string { return replicaToken.Regexp().ReplaceAllLiteralString(s, number) }
	out := *p
	out.Command = Command{Shell: fill(p.Command.Shell)}
	if p.Command.Argv != nil {
		out.Command.Argv = make([]string, len(p.Command.Argv))
		for j, arg := range p.Command.Argv {
			out.Command.Argv[j] = fill(arg)
		}
	}
	if p.Env != nil {
		out.Env = make(map[string]string, len(p.Env))
		for k, v := range p.Env {
			out.Env[k] = fill(v)
		}
	}
	return &out
}

// hasReplicaToken reports whether p's command or env holds {{.Replica}}.
func (p *Proc) hasReplicaToken() bool {
	has := replicaToken.MatchString
	return has(p.Command.Shell) || slices.ContainsFunc(p.Command.Argv, has) ||
		slices.ContainsFunc(slices.Collect(maps.Values(p.Env)), has)
}

// replicaProblem is what is wrong with the instances of the declared
// processes: at which process and key, and why.
type replicaProblem struct {
	name, key, message string
}

// replicaProblems checks what replicas add to a config: an instance's name
// taken by another process or too long, and the ports every enabled
// process and instance would listen on, each its own.
func replicaProblems(declared map[string]*Proc) []replicaProblem {
	var out []replicaProblem
	owner := map[int]string{}
	for _, name := range slices.Sorted(maps.Keys(declared)) {
		p := declared[name]
		out = append(out, instanceNameProblems(p, declared)...)
		if p.Port == 0 || p.Disabled {
			continue
		}
		if problem, ok := ownPortNamed(p); ok {
			out = append(out, problem)
		}
		for i := 1; i <= max(p.Replicas, 1); i++ {
			port, who := p.Port+i-1, name
			if p.Replicas > 0 {
				who = ReplicaName(name, i)
			}
			if port > 65535 {
				out = append(out, replicaProblem{name, "port", fmt.Sprintf("%s would listen on port %d, which is no port: use a lower port or fewer replicas", who, port)})
				break
			}
			if first, taken := owner[port]; taken {
				out = append(out, replicaProblem{name, "port", fmt.Sprintf("port %d%s is also used by %s: give each process its own port", port, instanceOf(who, name), first)})
				break
			}
			owner[port] = who
		}
	}
	return out
}

// ownPortNamed says a replicated process's command names its port itself
// (`http.server 8097`, `--port=8097`, `127.0.0.1:8097`): every instance
// would listen there, and all but one fail, whatever port procs gives
// each. A command that reads PORT or numbers its instances decides for
// itself; one that reads ${PORT} where procs expands it once is told so
// elsewhere (portReader).
func ownPortNamed(p *Proc) (replicaProblem, bool) {
	if p.Replicas < 2 || p.portReader != nil || p.hasReplicaToken() {
		return replicaProblem{}, false
	}
	command := p.Command.Shell
	if p.Command.Argv != nil {
		command = strings.Join(p.Command.Argv, " ")
	}
	if strings.Contains(command, "PORT") || strings.Contains(command, replicaVar) {
		return replicaProblem{}, false
	}
	own := regexp.MustCompile(`(^|[^\w.])` + strconv.Itoa(p.Port) + `($|[^\w.])`)
	if !own.MatchString(command) {
		return replicaProblem{}, false
	}
	return replicaProblem{p.Name, "command", fmt.Sprintf("names port %d itself: every instance of %s would listen there (%s is given %d, in PORT): "+
		"write $PORT in the command (a string command; \"${PORT}\" quoted), or have the program read PORT from its environment",
		p.Port, p.Name, ReplicaName(p.Name, 2), p.Port+1)}, true
}

// instanceOf says, in a message, which instance took a port: "" for a
// process without replicas.
func instanceOf(who, name string) string {
	if who == name {
		return ""
	}
	return " of " + who
}

// instanceNameProblems checks that the instances of p have names of their own.
func instanceNameProblems(p *Proc, declared map[string]*Proc) []replicaProblem {
	if p.Replicas == 0 {
		return nil
	}
	if last := ReplicaName(p.Name, p.Replicas); len(last) > processNameMax {
		return []replicaProblem{{p.Name, "replicas", fmt.Sprintf("instance name %s is %d characters long: use at most %d, with a shorter process name", last, len(last), processNameMax)}}
	}
	for i := 1; i <= p.Replicas; i++ {
		if other := declared[ReplicaName(p.Name, i)]; other != nil {
			return []replicaProblem{{p.Name, "replicas", fmt.Sprintf("instance %d of %s would be named %s, which another process is: rename one of them", i, p.Name, other.Name)}}
		}
	}
	return nil
}

// replicas reads the number of instances of a process: 1 or more.
func (d *decoder) replicas(path []string, v any) int {
	n, ok := d.integer(path, v, "a number of replicas")
	switch {
	case ok && n < 1:
		d.p.atValue(path, "%d replicas: a process runs 1 instance or more (disabled: true keeps it from starting)", n)
		return 0
	case ok && n > MaxReplicas:
		d.p.atValue(path, "%d replicas: a process runs at most %d instances", n, MaxReplicas)
		return 0
	}
	return n
}

// Resolve resolves names given on the command line (see Instances), in
// their order.
func (c *Config) Resolve(names []string) []string {
	var out []string
	for _, name := range names {
		out = append(out, c.Instances(name)...)
	}
	return out
}

// NameMatches reports whether a name or glob given on the command line
// names the process called name, an instance of group ("" when it is
// none): its own name, a glob matching it, or the replicated process's name.
func NameMatches(pattern, name, group string) bool {
	if pattern == name || (group != "" && pattern == group) {
		return true
	}
	ok, _ := path.Match(pattern, name)
	return ok
}
