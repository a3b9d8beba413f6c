package wire

import (
	"math"
	"strconv"
	"time"
)

// Usage is what the process tree of a running process uses. procs
// measures it only while someone looks (a status, a dashboard, an MCP
// call); a value it does not know is absent, never 0.
type Usage struct {
	// CPUPercent is the CPU the tree used over the last interval
	// measured, in percent of one core (two busy cores: 200).
	CPUPercent *float64 `json:"cpuPercent,omitempty"`
	// MemoryBytes is the tree's memory now: its cgroup's memory.current
	// where the kernel counts it, else the resident memory of its
	// processes added up.
	MemoryBytes uint64 `json:"memoryBytes,omitempty"`
	// MemoryPeakBytes is the highest memory of the run: its cgroup's
	// memory.peak, else the highest procs saw or any of its processes
	// reached.
	MemoryPeakBytes uint64 `json:"memoryPeakBytes,omitempty"`
}

// Known says whether anything of u was measured.
func (u Usage) Known() bool { return u.CPUPercent != nil || u.MemoryBytes > 0 }

// UsageHistory is what GET /v1/usage answers: the usage of each process
// measured at a fixed rate while someone looked, oldest first, a few
// minutes of it.
type UsageHistory struct {
	// Seq numbers the last measure; after=Seq asks for the later ones only.
	Seq int64 `json:"seq"`
	// IntervalMs is the time between two measures.
	IntervalMs int64 `json:"intervalMs"`
	// Procs holds the points of each process, by name.
	Procs map[string][]UsagePoint `json:"procs"`
}

// UsagePoint is the usage of one process at one measure.
type UsagePoint struct {
	Seq         int64     `json:"seq"`
	Time        time.Time `json:"time"`
	CPUPercent  float64   `json:"cpu"`
	MemoryBytes uint64    `json:"mem"`
}

// CPUText is the CPU as procs status shows it: "12.5%", "-" when unknown.
func (u Usage) CPUText() string {
	if u.CPUPercent == nil {
		return "-"
	}
	return strconv.FormatFloat(*u.CPUPercent, 'f', 1, 64) + "%"
}

// MemoryText is the memory as procs status shows it: "212M", "1.2G", "-"
// when unknown.
func (u Usage) MemoryText() string {
	if u.MemoryBytes == 0 {
		return "-"
	}
	return FormatBytes(u.MemoryBytes)
}

// FormatBytes writes a size the way a person reads it, in powers of 1024
// with two or three digits: "840K", "212M", "1.2G".
func FormatBytes(n uint64) string {
	const units = "BKMGTPE"
	value, unit := float64(n), 0
	for value >= 1000 && unit < len(units)-1 {
		value /= 1024
		unit++
	}
	if value < 10 && unit > 0 {
		return strconv.FormatFloat(value, 'f', 1, 64) + units[unit:unit+1]
	}
	return strconv.FormatFloat(math.Round(value), 'f', 0, 64) + units[unit:unit+1]
}

// Plus is u and v together, as the row of a replicated process sums its
// instances: what either knows.
func (u Usage) Plus(v Usage) Usage {
	sum := Usage{MemoryBytes: u.MemoryBytes + v.MemoryBytes, MemoryPeakBytes: u.MemoryPeakBytes + v.MemoryPeakBytes}
	if u.CPUPercent != nil || v.CPUPercent != nil {
		cpu := 0.0
		for _, p := range []*float64{u.CPUPercent, v.CPUPercent} {
			if p != nil {
				cpu += *p
			}
		}
		sum.CPUPercent = &cpu
	}
	return sum
}

// CPUOrZero is the CPU, 0 when unknown: to sort by.
func (u Usage) CPUOrZero() float64 {
	if u.CPUPercent == nil {
		return 0
	}
	return *u.CPUPercent
}
