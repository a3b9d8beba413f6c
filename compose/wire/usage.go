package wire

import "time"

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
