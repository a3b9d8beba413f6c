package osproc

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// jobs holds the job object of each started process, by its pid.
var jobs = struct {
	sync.Mutex
	byPID map[int]windows.Handle
}{byPID: make(map[int]windows.Handle)}

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
