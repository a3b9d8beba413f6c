package rules

import "fmt"

// MemoryLimit is what the kernel said of a run it killed at its memory
// limit: the limit, and the most memory the run used (0 when unknown).
type MemoryLimit struct {
	Limit int64
	Peak  int64
}

// describe says it as a verdict's message: "killed by the kernel: memory
// limit 64 MiB reached (peak 64 MiB)".
func (m MemoryLimit) describe() string {
	msg := "killed by the kernel: memory limit " + mebibytes(m.Limit) + " reached"
	if m.Peak > 0 {
		msg += " (peak " + mebibytes(m.Peak) + ")"
	}
	return msg
}

// mebibytes writes a size in MiB, or GiB from 10 GiB on, as a person
// reads it: whole when it is.
func mebibytes(n int64) string {
	value, unit := float64(n)/(1<<20), "MiB"
	if n >= 10<<30 {
		value, unit = float64(n)/(1<<30), "GiB"
	}
	if value == float64(int64(value)) {
		return fmt.Sprintf("%d %s", int64(value), unit)
	}
	return fmt.Sprintf("%.1f %s", value, unit)
}
