package osproc

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
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

// SIGCONT is a no-op on Windows: no process is ever stopped by procs.
const SIGCONT = syscall.Signal(0x12)

// jobs holds the job object of each started process, by its pid.
var jobs = struct {
	sync.Mutex
	byPID map[int]windows.Handle
}{byPID: make(map[int]windows.Handle)}

func platformFeatures() Platform { return features }

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

// Start starts cmd suspended, puts it in a new job object that kills its
// processes when procs closes it (or dies), then lets it run: every
// process it starts is born in the job.
func Start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = GroupAttrs()
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	job, err := newKillOnCloseJob()
	if err == nil {
		err = assignToJob(job, pid)
		if err != nil {
			windows.CloseHandle(job)
		}
	}
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return fmt.Errorf("put the process in a job object: %w", err)
	}
	jobs.Lock()
	jobs.byPID[pid] = job
	jobs.Unlock()
	if err := resumeThreads(pid); err != nil {
		_ = SignalGroup(pid, syscall.SIGKILL)
		_ = cmd.Wait()
		return fmt.Errorf("resume the process: %w", err)
	}
	return nil
}

// newKillOnCloseJob creates a job object whose processes die with its last handle.
func newKillOnCloseJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

func assignToJob(job windows.Handle, pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.AssignProcessToJobObject(job, h)
}

// resumeThreads resumes the threads of a process started suspended.
func resumeThreads(pid int) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	entry := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &entry); err == nil; err = windows.Thread32Next(snap, &entry) {
		if entry.OwnerProcessID != uint32(pid) {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, entry.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("no thread found")
	}
	return nil
}

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

// SignalGroup signals the run pgid leads: SIGKILL terminates its job (every
// process it started, wherever it went) and releases the job; SIGCONT does
// nothing; other signals are Ctrl-Break to its console group.
func SignalGroup(pgid int, sig syscall.Signal) error {
	if sig != syscall.SIGKILL {
		return Signal(pgid, sig)
	}
	jobs.Lock()
	job, ok := jobs.byPID[pgid]
	delete(jobs.byPID, pgid)
	jobs.Unlock()
	if !ok {
		return Signal(pgid, sig)
	}
	err := windows.TerminateJobObject(job, 1)
	windows.CloseHandle(job)
	return err
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

// jobAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type jobAccounting struct {
	TotalUserTime, TotalKernelTime, ThisPeriodUserTime, ThisPeriodKernelTime int64
	TotalPageFaults, TotalProcesses, ActiveProcesses, TotalTerminated        uint32
}

// GroupAlive reports whether any process is left in the job of the run
// pgid leads (or, without a job, whether pgid itself lives).
func GroupAlive(pgid int) bool {
	jobs.Lock()
	job, ok := jobs.byPID[pgid]
	jobs.Unlock()
	if !ok {
		return Alive(pgid)
	}
	var info jobAccounting
	err := windows.QueryInformationJobObject(job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), nil)
	return err != nil || info.ActiveProcesses > 0
}

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

// Running reports false: Windows gives no cheap run state per process.
func Running(int) bool { return false }

// Environ returns the environment of pid, NUL-separated.
func Environ(pid int) ([]byte, error) {
	env, err := (&process.Process{Pid: int32(pid)}).Environ()
	if err != nil {
		return nil, err
	}
	return []byte(strings.Join(env, "\x00")), nil
}

// CommandLine returns the command line of pid ("" when gone).
func CommandLine(pid int) string {
	line, _ := (&process.Process{Pid: int32(pid)}).Cmdline()
	return strings.TrimSpace(line)
}

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
