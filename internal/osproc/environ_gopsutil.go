//go:build darwin || windows

package osproc

import (
	"strings"

	"github.com/shirou/gopsutil/v4/process"
)

// Environ returns the environment pid was started with, NUL-separated
// (on macOS from kern.procargs2, readable for the user's own processes).
func Environ(pid int) ([]byte, error) {
	env, err := (&process.Process{Pid: int32(pid)}).Environ()
	if err != nil {
		return nil, err
	}
	return []byte(strings.Join(env, "\x00")), nil
}

// CommandLine returns the arguments of pid joined by spaces ("" when gone).
func CommandLine(pid int) string {
	line, _ := (&process.Process{Pid: int32(pid)}).Cmdline()
	return strings.TrimSpace(line)
}
