package config

import (
	"math"
	"strconv"
	"strings"
)

// Resources are the limits of a process's runs: the kernel holds every
// process of a run to them together (a cgroup on Linux). Zero is no limit.
type Resources struct {
	Memory ByteSize `json:"memory,omitempty" jsonschema_description:"Memory of the whole run (the process and its children), e.g. 512M, 1GiB: past it the kernel kills the run, which fails with reason memory-limit. At least 1MiB. Linux only (cgroups); elsewhere procs warns that it is not enforced."`
	CPU    float64  `json:"cpu,omitempty" jsonschema:"exclusiveMinimum=0" jsonschema_description:"CPU time of the whole run, in cores: 0.5 is half of one core, 1.5 one and a half. A run held at it is throttled, not killed, and procs status says so. Linux only (cgroups)."`
	Pids   int      `json:"pids,omitempty" jsonschema:"minimum=1" jsonschema_description:"How many processes and threads the run may have at once; a fork past it fails. Linux only (cgroups)."`
}

// IsZero reports whether no limit is set.
func (r Resources) IsZero() bool { return r == Resources{} }

// Names lists the limits set, in the words of procs.yaml ("memory", "cpu",
// "pids").
func (r Resources) Names() []string {
	var names []string
	if r.Memory != 0 {
		names = append(names, "memory")
	}
	if r.CPU != 0 {
		names = append(names, "cpu")
	}
	if r.Pids != 0 {
		names = append(names, "pids")
	}
	return names
}

// ResourcesOf are the limits of process p: each of its own resources:
// keys, else the top-level one.
func (c *Config) ResourcesOf(p *Proc) Resources {
	var out Resources
	for _, r := range []*Resources{c.Resources, p.Resources} {
		if r == nil {
			continue
		}
		if r.Memory != 0 {
			out.Memory = r.Memory
		}
		if r.CPU != 0 {
			out.CPU = r.CPU
		}
		if r.Pids != 0 {
			out.Pids = r.Pids
		}
	}
	return out
}

// LimitedResources is every limit some process of the config has, joined
// (a set limit counts, not its value): what procs must be able to enforce.
func (c *Config) LimitedResources() Resources {
	var out Resources
	for _, p := range c.Procs {
		r := c.ResourcesOf(p)
		out.Memory = max(out.Memory, r.Memory)
		out.CPU = max(out.CPU, r.CPU)
		out.Pids = max(out.Pids, r.Pids)
	}
	return out
}

// resourcesKeys are the keys of resources:.
var resourcesKeys = jsonKeys[Resources]()

// Bounds of the limits: below minMemory a run cannot even start a shell;
// maxCPU is far above any machine.
const (
	minMemory ByteSize = 1 << 20
	maxCPU             = 4096
	maxPids            = 1 << 22
)

// resources decodes a resources: mapping (top level or of a process).
func (d *decoder) resources(path []string, v any) *Resources {
	m, ok := d.mapping(path, v, resourcesKeys)
	if !ok {
		return nil
	}
	out := &Resources{}
	if raw := m["memory"]; raw != nil {
		memPath := child(path, "memory")
		out.Memory = d.byteSize(memPath, raw)
		if out.Memory != 0 && out.Memory < minMemory {
			d.p.atValue(memPath, "memory %s is too small: use at least 1MiB", out.Memory)
			out.Memory = 0
		}
	}
	if raw := m["cpu"]; raw != nil {
		out.CPU = d.cores(child(path, "cpu"), raw)
	}
	if raw := m["pids"]; raw != nil {
		pidsPath := child(path, "pids")
		if n, ok := d.integer(pidsPath, raw, "a number of processes"); ok {
			if n < 1 || n > maxPids {
				d.p.atValue(pidsPath, "pids %d is out of range: use a number of processes from 1 to %d", n, maxPids)
			} else {
				out.Pids = n
			}
		}
	}
	return out
}

// cores reads a number of CPU cores, more than 0 (0.5, 1, 1.5).
func (d *decoder) cores(path []string, v any) float64 {
	var n float64
	switch t := v.(type) {
	case int:
		n = float64(t)
	case int64:
		n = float64(t)
	case uint64:
		n = float64(t)
	case float64:
		n = t
	case string:
		parsed, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || !d.origin(path).text {
			d.p.atValue(path, "expected a number of cores (e.g. 0.5 or 2), got %s", d.describe(path, v))
			return 0
		}
		n = parsed
	default:
		d.typeErr(path, "a number of cores (e.g. 0.5 or 2)", v)
		return 0
	}
	if math.IsNaN(n) || n <= 0 || n > maxCPU {
		text, _ := d.scalarText(path, v)
		d.p.atValue(path, "cpu %s is out of range: use a number of cores above 0, e.g. 0.5 (half of one core) or 2", text)
		return 0
	}
	return n
}
