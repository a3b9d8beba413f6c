package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// dependsOn reads a list of names (each meaning ready), or a mapping of
// name to a condition word or {condition, restart}.
func (d *decoder) dependsOn(procPath []string, v any) Dependencies {
	path := child(procPath, "dependsOn")
	var deps Dependencies
	add := func(entryPath []string, dep Dependency) {
		key := [2]string{procPath[1], dep.Name}
		if _, dup := d.depPaths[key]; dup {
			d.p.atValue(entryPath, "%s is listed twice: keep one entry", dep.Name)
			return
		}
		d.depPaths[key] = entryPath
		deps = append(deps, dep)
	}
	switch t := v.(type) {
	case nil:
		return nil
	case []any:
		for i, item := range t {
			name, ok := item.(string)
			if !ok || name == "" {
				d.typeErr(index(path, i), "a process name", item)
				continue
			}
			add(index(path, i), Dependency{Name: name, Condition: ConditionReady})
		}
	case map[string]any:
		for _, name := range sortedKeys(t) {
			add(child(path, name), d.dependency(child(path, name), name, t[name]))
		}
	case string:
		d.p.atValue(path, "expected a list of process names, or a mapping of name: condition, got %s: write dependsOn: [%s]", d.describe(path, v), quoteForList(t))
	default:
		d.typeErr(path, "a list of process names, or a mapping of name: condition", v)
	}
	sort.SliceStable(deps, func(i, j int) bool { return deps[i].Name < deps[j].Name })
	return deps
}

var conditionWords = []string{string(ConditionStarted), string(ConditionReady), string(ConditionCompleted)}

// dependency reads one dependsOn value: nothing, a condition word, or
// {condition, restart}.
func (d *decoder) dependency(path []string, name string, v any) Dependency {
	dep := Dependency{Name: name, Condition: ConditionReady}
	switch v.(type) {
	case nil:
	case string:
		dep.Condition = Condition(d.word(path, v, conditionWords, "condition"))
	case map[string]any:
		m, _ := d.mapping(path, v, dependencyKeys)
		if m["condition"] != nil {
			dep.Condition = Condition(d.word(child(path, "condition"), m["condition"], conditionWords, "condition"))
		}
		dep.Restart = d.boolean(child(path, "restart"), m["restart"])
	default:
		d.typeErr(path, "a condition (started, ready, completed) or {condition, restart}", v)
	}
	if dep.Condition == "" {
		dep.Condition = ConditionReady
	}
	return dep
}

// StartOrder returns the process names with every process after the ones
// it depends on; processes free to start together are ordered by name.
func (c *Config) StartOrder() ([]string, error) {
	waiting := map[string]int{}
	for _, name := range c.Names() {
		for _, dep := range c.Procs[name].DependsOn {
			if _, ok := c.Procs[dep.Name]; !ok {
				return nil, fmt.Errorf("%s depends on %w %q", name, ErrUnknownProcess, dep.Name)
			}
			waiting[name]++
		}
	}
	var order, free []string
	for _, name := range c.Names() {
		if waiting[name] == 0 {
			free = append(free, name)
		}
	}
	dependents := c.DependentsGraph()
	// free stays sorted: each freed process is put in its place, where
	// sorting the list again on every step made 200 processes cost
	// 200 sorts.
	slices.SortFunc(free, c.compareNames)
	for len(free) > 0 {
		name := free[0]
		free = free[1:]
		order = append(order, name)
		for _, dependent := range dependents[name] {
			if waiting[dependent]--; waiting[dependent] == 0 {
				at, _ := slices.BinarySearchFunc(free, dependent, c.compareNames)
				free = slices.Insert(free, at, dependent)
			}
		}
	}
	if len(order) < len(c.Procs) {
		if cycles := c.cycles(); len(cycles) > 0 {
			return nil, fmt.Errorf("dependency cycle: %s", strings.Join(cycles[0], " → "))
		}
		return nil, fmt.Errorf("dependency cycle among %v", c.Names())
	}
	return order, nil
}

// Dependents returns the processes that depend directly on name, sorted.
func (c *Config) Dependents(name string) []string {
	var out []string
	for _, other := range c.Names() {
		for _, dep := range c.Procs[other].DependsOn {
			if dep.Name == name {
				out = append(out, other)
				break
			}
		}
	}
	return out
}

// DependentsGraph returns, for every process that others depend on, the
// processes that depend directly on it, sorted: Dependents of every name at
// once, for a caller that asks often (the engine, once per Config it runs).
func (c *Config) DependentsGraph() map[string][]string {
	graph := make(map[string][]string, len(c.Procs))
	for _, other := range c.Names() {
		for _, dep := range c.Procs[other].DependsOn {
			if n := len(graph[dep.Name]); n == 0 || graph[dep.Name][n-1] != other {
				graph[dep.Name] = append(graph[dep.Name], other)
			}
		}
	}
	return graph
}

// WithDependencies returns names plus everything they depend on,
// transitively, in start order: what `procs up NAME` starts.
func (c *Config) WithDependencies(names ...string) ([]string, error) {
	wanted := map[string]bool{}
	var visit func(name string) error
	visit = func(name string) error {
		if wanted[name] {
			return nil
		}
		p, ok := c.Procs[name]
		if !ok {
			return &UnknownProcessError{Name: name, Known: c.Names()}
		}
		wanted[name] = true
		for _, dep := range p.DependsOn {
			if err := visit(dep.Name); err != nil {
				return err
			}
		}
		return nil
	}
	for _, name := range names {
		if err := visit(name); err != nil {
			return nil, err
		}
	}
	order, err := c.StartOrder()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(order, func(name string) bool { return !wanted[name] }), nil
}

// cycles finds the dependency cycles, each written from its smallest name
// back to it (a → b → a), ignoring a process depending on itself and
// dependencies on unknown processes.
func (c *Config) cycles() [][]string {
	const (
		unvisited = iota
		onStack
		done
	)
	state := map[string]int{}
	var stack []string
	seen := map[string]bool{}
	var found [][]string
	var visit func(name string)
	visit = func(name string) {
		state[name] = onStack
		stack = append(stack, name)
		for _, dep := range c.Procs[name].DependsOn {
			if _, ok := c.Procs[dep.Name]; !ok || dep.Name == name {
				continue
			}
			switch state[dep.Name] {
			case unvisited:
				visit(dep.Name)
			case onStack:
				start := slices.Index(stack, dep.Name)
				cycle := canonicalCycle(stack[start:])
				if key := strings.Join(cycle, "\x00"); !seen[key] {
					seen[key] = true
					found = append(found, cycle)
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[name] = done
	}
	for _, name := range c.Names() {
		if state[name] == unvisited {
			visit(name)
		}
	}
	return found
}

// canonicalCycle rotates a cycle to start at its smallest name and closes it.
func canonicalCycle(loop []string) []string {
	first := 0
	for i, name := range loop {
		if name < loop[first] {
			first = i
		}
	}
	out := append(slices.Clone(loop[first:]), loop[:first]...)
	return append(out, out[0])
}
