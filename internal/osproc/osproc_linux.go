package osproc

import (
	"bytes"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// PortableEnv, set to "portable", makes procs on Linux do without the
// subreaper and the parent-death signal, the way it must on macOS and
// FreeBSD, and without cgroups: Linux then runs what macOS runs, and that
// design is tested here, on real processes, through it.
const PortableEnv = "PROCS_PLATFORM"

var platformFeatures = sync.OnceValue(func() Platform {
	p := Platform{
		Name: "linux", Subreaper: true, ParentDeathSignal: true, Cgroups: true,
		ProcessGroups: true, PTY: true, GracefulStop: true, PeerCredentials: true,
	}
	if os.Getenv(PortableEnv) == "portable" {
		p.Subreaper, p.ParentDeathSignal, p.Cgroups = false, false, false
	}
	return p
})

// procRoot is where procfs is mounted.
const procRoot = "/proc"

// GroupAttrs starts a child in a process group of its own, killed by the
// kernel if the thread that forked it (the spawner's, which lives as long
// as procs) ends.
func GroupAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: deathSignal()}
}

// deathSignal is the parent-death signal, 0 (none) when turned off.
func deathSignal() syscall.Signal {
	if !Features().ParentDeathSignal {
		return 0
	}
	return syscall.SIGKILL
}

// SessionAttrs starts a child in a session of its own, on the terminal
// given as its stdin (a PTY), with the same parent-death signal.
func SessionAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Pdeathsig: deathSignal()}
}

// BecomeSubreaper makes the calling process the subreaper of its
// descendants: orphans are re-parented to it instead of init, where procs
// can still find, stop and reap them.
func BecomeSubreaper() error {
	if !Features().Subreaper {
		return errUnsupported("a child subreaper (" + PortableEnv + "=portable)")
	}
	return unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
}

// ChildrenOf lists the direct children of pid (none when it is gone),
// from /proc/PID/task/TID/children: the children of every thread, since a
// child belongs to the thread that forked it.
//
// The kernel lists a thread's children one after the other, each found
// from the one before; when that one has just exited, it counts its way
// back from the head of the list instead, and lands one too far: a child
// that was there all along is left out. A sweep that missed an escaped
// process that way left it running. So each list is read whole (one page,
// about 680 children, comes in one read; os.ReadFile's 512-byte pieces
// resumed by count each time) and twice, and the two are joined: a child
// is missed only if both reads skip it.
func ChildrenOf(pid int) []int {
	taskDir := procRoot + "/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(taskDir)
	if err != nil {
		return nil
	}
	var children []int
	seen := make(map[int]bool)
	buf := make([]byte, 0, 8<<10)
	for _, task := range tasks {
		path := taskDir + "/" + task.Name() + "/children"
		for range 2 {
			buf = ReadKernelFile(path, buf[:0])
			for f := range strings.FieldsSeq(string(buf)) {
				if child, err := strconv.Atoi(f); err == nil && !seen[child] {
					seen[child] = true
					children = append(children, child)
				}
			}
		}
	}
	return children
}

// descendantsOf walks /proc from root, reading only the processes below it.
func descendantsOf(root int) []int { return walkTree(root, ChildrenOf) }

// AllPIDs lists every process of the machine (the numeric entries of
// /proc), in the kernel's order, which is the pids' own. Names only: the
// sorted entries of os.ReadDir cost an allocation each and a sort, and a
// look through every process's environment (the last look of each clean
// shutdown) begins with this list.
func AllPIDs() []int {
	dir, err := os.Open(procRoot)
	if err != nil {
		return nil
	}
	defer dir.Close()
	names, _ := dir.Readdirnames(-1)
	pids := make([]int, 0, len(names))
	for _, name := range names {
		if pid, err := strconv.Atoi(name); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Parents maps every process of the machine to its parent.
func Parents() map[int]int {
	pids := AllPIDs()
	parents := make(map[int]int, len(pids))
	for _, pid := range pids {
		if ppid := ParentOf(pid); ppid > 0 {
			parents[pid] = ppid
		}
	}
	return parents
}

// statFields returns the fields of /proc/PID/stat after the command name
// (which is in parentheses and may hold spaces): fields[0] is field 3.
func statFields(pid int) []string {
	var buf [512]byte
	data := ReadKernelFile(procRoot+"/"+strconv.Itoa(pid)+"/stat", buf[:0])
	if data == nil {
		return nil
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(data[i+1:]))
}

// StartTime returns when pid started, in a unit of the platform's own
// (clock ticks since boot here): it tells a process from a later one that
// reused its pid, and orders processes by start.
func StartTime(pid int) (uint64, bool) {
	const startTimeField = 22 - 3
	fields := statFields(pid)
	if len(fields) <= startTimeField {
		return 0, false
	}
	v, err := strconv.ParseUint(fields[startTimeField], 10, 64)
	return v, err == nil
}

// StartTimeNow returns the time in StartTime's unit: a process forked
// after the call started at it or later. Where a spawner needs no more than
// that, it spares a read of /proc per process. /proc counts a start in
// USER_HZ (100) ticks of the boot-time clock, which clock_gettime reads
// without a system call.
func StartTimeNow() uint64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts); err != nil {
		return 0
	}
	const nsPerTick = 1e9 / 100
	return uint64(ts.Nano()) / nsPerTick
}

// ParentOf returns the parent of pid, 0 when unknown.
func ParentOf(pid int) int {
	fields := statFields(pid)
	if len(fields) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// Live reports whether pid exists and is not a zombie: a process that has
// not ended, where Alive also counts one that ended and was not reaped.
func Live(pid int) bool {
	fields := statFields(pid)
	return len(fields) > 0 && fields[0] != "Z"
}

// Awake reports whether pid exists and is neither stopped (Ctrl-Z,
// SIGSTOP, a tracer) nor a zombie: running, runnable, sleeping or waiting
// for the disk.
func Awake(pid int) bool {
	fields := statFields(pid)
	return len(fields) > 0 && strings.ContainsAny(fields[0], "RSD")
}

// Running reports whether pid is running or runnable, or waiting for the
// disk (state R or D): still busy, where a process waiting for work sleeps.
func Running(pid int) bool {
	fields := statFields(pid)
	return len(fields) > 0 && (fields[0] == "R" || fields[0] == "D")
}

// CommandLine returns the arguments of pid joined by spaces ("" when gone
// or when it has none: a kernel thread, a zombie).
func CommandLine(pid int) string {
	data, err := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " "))
}

// Comm returns the short name of pid's program ("" when gone).
func Comm(pid int) string {
	data, _ := os.ReadFile(procRoot + "/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(data))
}

// PeerUID returns the uid of the process at the other end of a Unix
// socket (SO_PEERCRED).
func PeerUID(conn *net.UnixConn) (int, error) {
	var cred *unix.Ucred
	err := controlFD(conn, func(fd int) (err error) {
		cred, err = unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
		return err
	})
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
