// Package usage measures what the process tree of a run uses: its CPU and
// its memory, from the run's cgroup v2 where the kernel counts them
// (cpu.stat, memory.current, memory.peak), else by adding up its
// processes (internal/osproc). It reads; when to read is the caller's.
package usage

import (
	"time"

	"github.com/procsdev/procs/internal/osproc"
)

// Sample is what a process tree had used at one moment.
type Sample struct {
	// At is when it was read.
	At time.Time
	// CPU is the processor time the tree has used: with a cgroup, all
	// the run ever used; without, that of its live processes and of the
	// children they waited for, so it can drop when one of them ends.
	CPU time.Duration
	// Memory is the tree's memory now, in bytes.
	Memory uint64
	// Peak is the highest memory known of the tree, in bytes: the
	// cgroup's memory.peak, else the highest of any one of its processes
	// (0 where the OS keeps none).
	Peak uint64
}

// CPUPercent is the CPU the tree used between two samples, in percent of
// one core (a tree busy on two cores is at 200). A tree whose CPU time
// dropped (a process of it ended) counts as idle, never negative.
func CPUPercent(prev, cur Sample) float64 {
	wall := cur.At.Sub(prev.At)
	if wall <= 0 || cur.CPU <= prev.CPU {
		return 0
	}
	return float64(cur.CPU-prev.CPU) / float64(wall) * 100
}

// Target is the process tree of one run: its root, and its cgroup folder
// where it has one ("" without).
type Target struct {
	PID    int
	Cgroup string
}

// Read samples what t uses now. It fails when the tree is gone.
func Read(t Target) (Sample, error) {
	s := Sample{At: time.Now()}
	var cpuOK, memoryOK bool
	if t.Cgroup != "" {
		s.CPU, cpuOK = cgroupCPU(t.Cgroup)
		s.Memory, memoryOK = cgroupValue(t.Cgroup, "memory.current")
		if memoryOK {
			s.Peak, _ = cgroupValue(t.Cgroup, "memory.peak")
		}
	}
	if cpuOK && memoryOK {
		return s, nil
	}
	// A cgroup without the memory controller (cgroup v1 systems, whose
	// v2 hierarchy has none) still lists its processes; a cgroup that
	// cannot be read (gone, or none) leaves the tree under the root.
	var pids []int
	if cpuOK {
		pids = osproc.CgroupMembers(t.Cgroup)
	} else {
		var err error
		if pids, err = osproc.ProcessTree(t.PID); err != nil {
			return Sample{}, err
		}
	}
	tree := sumTree(pids)
	if !cpuOK {
		s.CPU = tree.CPU
	}
	if !memoryOK {
		s.Memory, s.Peak = tree.Memory, tree.Peak
	}
	return s, nil
}

// sumTree adds up the CPU time and memory of pids; the peak is the
// highest of any one of them, since their peaks need not have coincided.
func sumTree(pids []int) osproc.ProcessUsage {
	var total osproc.ProcessUsage
	for _, pid := range pids {
		u, err := osproc.Usage(pid)
		if err != nil {
			continue // gone meanwhile
		}
		total.CPU += u.CPU
		total.Memory += u.Memory
		total.Peak = max(total.Peak, u.Peak)
	}
	total.Peak = max(total.Peak, total.Memory)
	return total
}
