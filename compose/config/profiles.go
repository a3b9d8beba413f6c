package config

import (
	"fmt"
	"slices"
	"strings"
)

// profiles reads a process's profiles: a list of names such as [debug, e2e].
func (d *decoder) profiles(path []string, v any) []string {
	list := d.stringList(path, v)
	for i, name := range list {
		if err := checkProfileName(name); err != nil {
			d.p.atValue(index(path, i), "%v", err)
		}
	}
	return list
}

// checkProfileName says what is wrong with a profile name, if anything.
func checkProfileName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty profile name: use letters, digits, _, . and -, e.g. debug")
	case !processName.MatchString(name):
		return fmt.Errorf("invalid profile name %q: use letters, digits, _, . and -, starting with a letter or digit", name)
	}
	return nil
}

// ParseProfiles reads the active profiles of procs up: each value is one
// name or a comma-separated list (--profile e2e --profile debug,
// PROCS_PROFILES=e2e,debug). Blank entries are skipped.
func ParseProfiles(values ...string) ([]string, error) {
	var active []string
	for _, value := range values {
		for _, name := range strings.Split(value, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if err := checkProfileName(name); err != nil {
				return nil, err
			}
			if !slices.Contains(active, name) {
				active = append(active, name)
			}
		}
	}
	return active, nil
}

// CheckProfiles refuses a name in names that is not a profile of a process
// of c: a typo in --profile would otherwise start less than asked for, and
// say nothing.
func (c *Config) CheckProfiles(names []string) error {
	var declared []string
	for _, p := range c.Procs {
		for _, name := range p.Profiles {
			if !slices.Contains(declared, name) {
				declared = append(declared, name)
			}
		}
	}
	slices.Sort(declared)
	for _, name := range names {
		switch {
		case slices.Contains(declared, name):
		case len(declared) == 0:
			return fmt.Errorf("unknown profile %q: no process of %s has profiles", name, c.FileName())
		default:
			return fmt.Errorf("unknown profile %q%s: %s has profiles %s", name, didYouMean(name, declared), c.FileName(), strings.Join(declared, ", "))
		}
	}
	return nil
}

// ActiveIn reports whether p starts with procs up when the profiles in
// active are: a process without profiles always does, one with profiles
// when one of them is active.
func (p *Proc) ActiveIn(active []string) bool {
	if len(p.Profiles) == 0 {
		return true
	}
	for _, name := range p.Profiles {
		if slices.Contains(active, name) {
			return true
		}
	}
	return false
}

// UpSet returns the processes procs up starts when the profiles in active
// are: every process that is not disabled and whose profiles are active
// (but for a task left to its schedule), and the dependencies of those
// that are not disabled, whatever their own profiles (as docker
// compose starts a dependency's profile service). It is sorted.
func (c *Config) UpSet(active []string) []string {
	var roots []string
	for _, name := range c.Names() {
		if p := c.Procs[name]; !p.Disabled && p.ActiveIn(active) && !p.WaitsForSchedule() {
			roots = append(roots, name)
		}
	}
	if len(roots) == 0 {
		return nil
	}
	names, err := c.WithDependencies(roots...)
	if err != nil {
		return roots // a checked config names only declared processes
	}
	names = slices.DeleteFunc(names, func(name string) bool { return c.Procs[name].Disabled })
	slices.Sort(names)
	return names
}
