package contain

import "strings"

// Limits are the resource limits of one run, for all of its processes
// together; a zero field is no limit.
type Limits struct {
	// Memory is in bytes: past it the kernel kills a process of the run.
	Memory int64
	// CPU is in cores: 1.5 is one and a half cores' time per period.
	CPU float64
	// Pids bounds the processes and threads of the run.
	Pids int
}

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool { return l == Limits{} }

// names lists the limits set, in the words of procs.yaml.
func (l Limits) names() []string {
	var names []string
	if l.Memory != 0 {
		names = append(names, "memory")
	}
	if l.CPU != 0 {
		names = append(names, "cpu")
	}
	if l.Pids != 0 {
		names = append(names, "pids")
	}
	return names
}

// LimitsError says which limits of a config cannot be enforced here, and
// why: the runs go without them.
type LimitsError struct {
	// Limits are the limits not enforced: "memory", "cpu", "pids".
	Limits []string
	// Why is what is missing ("no writable cgroup memory/cpu controller").
	Why string
}

func (e *LimitsError) Error() string {
	which := strings.Join(e.Limits, " and ")
	if len(e.Limits) > 2 {
		which = strings.Join(e.Limits[:len(e.Limits)-1], ", ") + " and " + e.Limits[len(e.Limits)-1]
	}
	if len(e.Limits) == 1 {
		return which + " limit cannot be enforced here (" + e.Why + "): it is ignored"
	}
	return which + " limits cannot be enforced here (" + e.Why + "): they are ignored"
}
