package osproc

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
	"unsafe"

	"github.com/shirou/gopsutil/v4/process"
	"golang.org/x/sys/windows"
)

// Windows runs each process in a job object of its own, created to kill
// its processes when its last handle closes: procs holds the handles, so
// whatever ends procs ends every process it started. A graceful stop is
// Ctrl-Break to the process's console group; there are no PTYs and no peer
// credentials on the control socket.
var features = Platform{Name: "windows", Jobs: true, GracefulStop: true}

func platformFeatures() Platform { return features }

// SIGCONT is a no-op on Windows: no process is ever stopped by procs.
const SIGCONT = syscall.Signal(0x12)

// GroupAttrs starts a child in a console process group of its own, the
// group Ctrl-Break reaches.
func GroupAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
}

// SessionAttrs is GroupAttrs: Windows has no sessions, and procs no PTYs.
func SessionAttrs() *syscall.SysProcAttr { return GroupAttrs() }

// DetachedAttrs starts a process without a console: the background procs.
func DetachedAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP | windows.DETACHED_PROCESS}
}

// OwnGroupAttrs starts a process in a console group of its own.
func OwnGroupAttrs() *syscall.SysProcAttr { return GroupAttrs() }

// BecomeSubreaper fails: Windows has no re-parenting; job objects do that work.
func BecomeSubreaper() error { return errUnsupported("a child subreaper") }

// Signal ends pid for SIGKILL; any other signal is sent as Ctrl-Break to
// the console group pid leads.
func Signal(pid int, sig syscall.Signal) error {
	switch sig {
	case syscall.SIGKILL:
		p, err := os.FindProcess(pid)
		if err != nil {
			return err
		}
		defer p.Release()
		return p.Kill()
	case 0, SIGCONT:
		return nil
	}
	return windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(pid))
}

// Alive reports whether pid exists and has not exited.
func Alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer windows.CloseHandle(h)
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

// stillActive is the exit code of a process that has not exited (STILL_ACTIVE).
const stillActive = 259

// Reap does nothing: Windows has no zombies.
func Reap(int) bool { return true }

// ReapGroup does nothing: Windows has no zombies.
func ReapGroup(int) {}

// WaitGone waits until pid has exited.
func WaitGone(pid int) {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return
	}
	defer windows.CloseHandle(h)
	_, _ = windows.WaitForSingleObject(h, windows.INFINITE)
}

// Getpgid fails: Windows has no process groups procs can read back.
func Getpgid(int) (int, error) { return 0, errUnsupported("process groups") }

// Getpgrp returns the pid of the calling process.
func Getpgrp() int { return os.Getpid() }

// processTable reads every process of the machine in one snapshot.
func processTable() []procEntry {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	var table []procEntry
	entry := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &entry); err == nil; err = windows.Process32Next(snap, &entry) {
		table = append(table, procEntry{pid: int(entry.ProcessID), ppid: int(entry.ParentProcessID)})
	}
	return table
}

// ChildrenOf lists the direct children of pid (none when it is gone).
func ChildrenOf(pid int) []int { return childrenIndex(processTable())[pid] }

// descendantsOf walks one snapshot of the process table from root.
func descendantsOf(root int) []int {
	index := childrenIndex(processTable())
	return walkTree(root, func(pid int) []int { return index[pid] })
}

// Parents maps every process of the machine to its parent, from one
// snapshot of the process table.
func Parents() map[int]int { return parentsFrom(processTable()) }

// AllPIDs lists every process of the machine.
func AllPIDs() []int {
	var pids []int
	for _, p := range processTable() {
		pids = append(pids, p.pid)
	}
	return pids
}

// ParentOf returns the parent of pid, 0 when unknown.
func ParentOf(pid int) int {
	ppid, _ := (&process.Process{Pid: int32(pid)}).Ppid()
	return int(ppid)
}

// StartTime returns when pid started, in milliseconds since the epoch.
func StartTime(pid int) (uint64, bool) {
	ms, err := (&process.Process{Pid: int32(pid)}).CreateTime()
	return uint64(ms), err == nil && ms > 0
}

// StartTimeNow returns the time in StartTime's unit: a process created
// after the call started at it or later.
func StartTimeNow() uint64 { return uint64(time.Now().UnixMilli()) }

// Running reports false: Windows gives no cheap run state per process.
func Running(int) bool { return false }

// Comm returns the program name of pid ("" when gone).
func Comm(pid int) string {
	name, _ := (&process.Process{Pid: int32(pid)}).Name()
	return name
}

// PeerUID fails: Windows gives no credentials of a Unix-socket peer; the
// socket's folder, private to the user, is what keeps others out.
func PeerUID(*net.UnixConn) (int, error) { return 0, errUnsupported("peer credentials") }

// LockFile takes an exclusive lock on f without waiting; ErrLocked when
// another process holds it. Windows drops the lock when the process ends.
func LockFile(f *os.File) error {
	var ol windows.Overlapped
	err := windows.LockFileEx(windows.Handle(f.Fd()),
		windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return ErrLocked
	}
	return err
}

// FileOwner reports false: a file's owner on Windows is a SID, not a uid.
func FileOwner(fs.FileInfo) (int, bool) { return 0, false }

// NotifyResize does nothing: a Windows console sends no signal when its
// window changes.
func NotifyResize(chan<- os.Signal) {}

// InheritFile makes cmd's process inherit f, and returns how it names it
// there (its handle), for an environment variable.
func InheritFile(cmd *exec.Cmd, f *os.File) string {
	h := windows.Handle(f.Fd())
	// The handle list of the child holds only inheritable handles.
	_ = windows.SetHandleInformation(h, windows.HANDLE_FLAG_INHERIT, windows.HANDLE_FLAG_INHERIT)
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.AdditionalInheritedHandles = append(cmd.SysProcAttr.AdditionalInheritedHandles, syscall.Handle(h))
	return strconv.FormatUint(uint64(h), 10)
}

// MakePrivate does nothing: file modes do not exist on Windows, where the
// folder's access list decides who may open the file.
func MakePrivate(string) error { return nil }

// Awake reports false on Windows, which gives no cheap run state per process: callers take false for "cannot tell".
func Awake(int) bool { return false }
