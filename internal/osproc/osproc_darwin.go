package osproc

import (
	"time"

	"golang.org/x/sys/unix"
)

// macOS has no subreaper, no parent-death signal and no cgroups: orphans
// go to launchd, so procs finds what a run left by its PROCS_OWNER marker
// (read with kern.procargs2) and by walking the process table, and its
// watchdog kills the recorded process groups and marked processes when
// procs dies.
var features = Platform{
	Name: "darwin", ProcessGroups: true, PTY: true, GracefulStop: true, PeerCredentials: true,
}

func platformFeatures() Platform { return features }

// processTable reads every process of the machine in one sysctl.
func processTable() []procEntry {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil
	}
	table := make([]procEntry, 0, len(procs))
	for _, p := range procs {
		table = append(table, procEntry{pid: int(p.Proc.P_pid), ppid: int(p.Eproc.Ppid)})
	}
	return table
}

// kinfo reads the kernel's record of one process.
func kinfo(pid int) (*unix.KinfoProc, bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || k.Proc.P_pid != int32(pid) {
		return nil, false
	}
	return k, true
}

// StartTime returns when pid started, in microseconds since the epoch: it
// tells a process from a later one that reused its pid, and orders
// processes by start.
func StartTime(pid int) (uint64, bool) {
	k, ok := kinfo(pid)
	if !ok {
		return 0, false
	}
	t := k.Proc.P_starttime
	return uint64(t.Sec)*1_000_000 + uint64(t.Usec), true
}

// StartTimeNow returns the time in StartTime's unit: a process forked
// after the call started at it or later.
func StartTimeNow() uint64 { return uint64(time.Now().UnixMicro()) }

// ParentOf returns the parent of pid, 0 when unknown.
func ParentOf(pid int) int {
	if k, ok := kinfo(pid); ok {
		return int(k.Eproc.Ppid)
	}
	return 0
}

// Running reports false: the kernel's process status on macOS is SRUN for
// every live process, so it cannot tell a busy process from an idle one.
func Running(int) bool { return false }

// Comm returns the short name of pid's program ("" when gone).
func Comm(pid int) string {
	k, ok := kinfo(pid)
	if !ok {
		return ""
	}
	return unix.ByteSliceToString(k.Proc.P_comm[:])
}

// Awake reports false on macOS, whose kernel process status cannot be read as cheaply: callers take false for "cannot tell".
func Awake(int) bool { return false }
