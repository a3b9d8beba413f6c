package export

import (
	"fmt"
	"slices"
)

// NameClashError is two processes that a format would write under one
// name: the second object would silently replace the first one.
type NameClashError struct {
	// Format is the format that names them (kubernetes).
	Format string
	// Procs are the two processes, by their names in procs.yaml.
	Procs [2]string
	// Name is the name both would get.
	Name string
	// Rule says how the format makes its names (lower case, '-' for '_').
	Rule string
}

// Error names both processes, the name and what to do.
func (e *NameClashError) Error() string {
	return fmt.Sprintf("%s: processes %s and %s would both be named %s (%s), and one would replace the other: rename one of them in procs.yaml",
		e.Format, e.Procs[0], e.Procs[1], e.Name, e.Rule)
}

// CheckNames returns a *NameClashError when nameOf, the name format
// writes a process under, gives two of the project's processes the same
// one (rule says how it makes names); nil when each has its own.
func (p *Project) CheckNames(format, rule string, nameOf func(*Process) string) error {
	taken := map[string]string{}
	for _, proc := range p.Procs {
		name := nameOf(proc)
		if other, ok := taken[name]; ok {
			pair := [2]string{other, proc.Name}
			slices.Sort(pair[:])
			return &NameClashError{Format: format, Procs: pair, Name: name, Rule: rule}
		}
		taken[name] = proc.Name
	}
	return nil
}
