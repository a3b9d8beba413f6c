package osproc

import (
	"slices"
	"strings"
	"time"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/unix"
)

// FreeBSD builds, with what macOS has: process groups, the watchdog, the
// process table and the PROCS_OWNER marker (kern.proc.env). Its own
// reaper (procctl PROC_REAP_ACQUIRE) is not used yet, nor is it tested on
// FreeBSD itself.
var features = Platform{
	Name: "freebsd", ProcessGroups: true, PTY: true, GracefulStop: true, PeerCredentials: true,
}

func platformFeatures() Platform { return features }

// processTable reads every process of the machine.
func processTable() []procEntry {
	pids, err := process.Pids()
	if err != nil {
		return nil
	}
	table := make([]procEntry, 0, len(pids))
	for _, pid := range pids {
		if ppid, err := (&process.Process{Pid: pid}).Ppid(); err == nil {
			table = append(table, procEntry{pid: int(pid), ppid: int(ppid)})
		}
	}
	return table
}

// StartTime returns when pid started, in milliseconds since the epoch.
func StartTime(pid int) (uint64, bool) {
	ms, err := (&process.Process{Pid: int32(pid)}).CreateTime()
	return uint64(ms), err == nil && ms > 0
}

// StartTimeNow returns the time in StartTime's unit: a process forked
// after the call started at it or later.
func StartTimeNow() uint64 { return uint64(time.Now().UnixMilli()) }

// ParentOf returns the parent of pid, 0 when unknown.
func ParentOf(pid int) int {
	ppid, _ := (&process.Process{Pid: int32(pid)}).Ppid()
	return int(ppid)
}

// Running reports whether pid is running or runnable.
func Running(pid int) bool {
	status, err := (&process.Process{Pid: int32(pid)}).Status()
	return err == nil && slices.Contains(status, process.Running)
}

// Environ returns the environment of pid (kern.proc.env), NUL-separated.
func Environ(pid int) ([]byte, error) { return unix.SysctlRaw("kern.proc.env", pid) }

// CommandLine returns the arguments of pid joined by spaces ("" when gone).
func CommandLine(pid int) string {
	line, _ := (&process.Process{Pid: int32(pid)}).Cmdline()
	return strings.TrimSpace(line)
}

// Comm returns the short name of pid's program ("" when gone).
func Comm(pid int) string {
	name, _ := (&process.Process{Pid: int32(pid)}).Name()
	return name
}

// Awake reports false on FreeBSD, where procs does not read the run state for this: callers take false for "cannot tell".
func Awake(int) bool { return false }
