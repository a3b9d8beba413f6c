//go:build !linux

package osproc

import (
	"time"

	"github.com/shirou/gopsutil/v4/process"
)

// Usage reads what pid has used: its CPU time and its resident memory
// (gopsutil: sysctl on macOS and FreeBSD, the process API on Windows).
func Usage(pid int) (ProcessUsage, error) {
	p := &process.Process{Pid: int32(pid)}
	times, err := p.Times()
	if err != nil {
		return ProcessUsage{}, err
	}
	mem, err := p.MemoryInfo()
	if err != nil {
		return ProcessUsage{}, err
	}
	cpu := time.Duration((times.User + times.System) * float64(time.Second))
	return ProcessUsage{CPU: cpu, Memory: mem.RSS}, nil
}
