package rules

import (
	"fmt"
	"syscall"
)

// Exit is how a run ended, as the engine observed it.
type Exit struct {
	// Code is the exit status; by shell convention 128+n when killed by
	// signal n.
	Code int
	// Signal is the signal that killed the process, 0 if it exited.
	Signal syscall.Signal
	// Requested is set when procs asked the process to stop.
	Requested bool
	// Err is a failure to start or wait for the process.
	Err error
	// Daemon is what the run left running when its main process exited;
	// nil when nothing.
	Daemon *Daemon
	// MemoryLimit is set when the kernel killed a process of the run at
	// the run's memory limit (its cgroup counted an OOM kill); nil
	// otherwise.
	MemoryLimit *MemoryLimit
}

// signalOf returns the signal that ended the process, from Signal or, when
// only a shell-style code is known, from 128+n.
func (e Exit) signalOf() syscall.Signal {
	if e.Signal != 0 {
		return e.Signal
	}
	if e.Code > 128 && e.Code < 128+65 {
		return syscall.Signal(e.Code - 128)
	}
	return 0
}

// describe says how the process ended, e.g. "exit code 1" or
// "killed by SIGKILL"; a shell's 126 and 127 with what they mean.
func (e Exit) describe() string {
	text := e.describeCode()
	if e.Err == nil && e.Signal == 0 {
		switch e.Code {
		case 126:
			text += " (command not executable)"
		case 127:
			text += " (command not found)"
		}
	}
	return text
}

// describeCode is describe without a guess at what 126 or 127 mean: after
// an error line of the program's own, the command was found and ran (ng
// serve exits 127 on a taken port).
func (e Exit) describeCode() string {
	if e.Err != nil {
		return fmt.Sprintf("start failed: %v", e.Err)
	}
	if e.MemoryLimit != nil && e.signalOf() == syscall.SIGKILL {
		return e.MemoryLimit.describe()
	}
	if e.Signal != 0 {
		return "killed by " + signalName(e.Signal)
	}
	if sig := e.signalOf(); sig != 0 {
		return fmt.Sprintf("exit code %d (%s)", e.Code, signalName(sig))
	}
	return fmt.Sprintf("exit code %d", e.Code)
}

// classifyExit turns an exit into a verdict (ARCHITECTURE.md §3):
//   - a requested stop is stopped, however the process ended (exit 0, 130,
//     143, our signal, or the SIGKILL after the shutdown timeout);
//   - SIGKILL or 137 after the kernel killed at the run's memory limit is
//     memory-limit, saying the limit and the peak;
//   - SIGKILL or 137 otherwise is killed: the OOM killer of the whole
//     machine, or a person;
//   - a task exiting 0 is completed;
//   - a service exiting 0 and leaving a daemon behind is failed with reason
//     "daemonized";
//   - a service exiting 0 is failed with reason "exited": a service is meant
//     to keep running, and one that exits 0 while starting never became
//     ready;
//   - anything else is a crash with the code or signal.
func classifyExit(e Exit, task bool) Verdict {
	v := Verdict{State: StateFailed, ExitCode: e.Code, Message: e.describe()}
	sig := e.signalOf()
	switch {
	case e.Err != nil:
		v.Reason = ReasonCrash
		v.ExitCode = -1
	case e.Requested:
		v.State, v.Reason = StateStopped, ReasonStopped
		v.Message = "stopped on request (" + v.Message + ")"
	case sig == syscall.SIGKILL && e.MemoryLimit != nil:
		v.Reason = ReasonMemoryLimit
	case sig == syscall.SIGKILL:
		v.Reason = ReasonKilled
	case e.Code == 0 && sig == 0 && task:
		v.State, v.Reason = StateCompleted, ReasonCompleted
	case e.Code == 0 && sig == 0 && e.Daemon != nil:
		v = daemonVerdict(e.Daemon)
	case e.Code == 0 && sig == 0:
		v.Reason = ReasonExited
		v.Message = "exited with code 0; a service is expected to keep running"
	default:
		v.Reason = ReasonCrash
	}
	return v
}

var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP: "SIGHUP", syscall.SIGINT: "SIGINT", syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGILL: "SIGILL", syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS",
	syscall.SIGFPE: "SIGFPE", syscall.SIGKILL: "SIGKILL", syscall.SIGSEGV: "SIGSEGV",
	syscall.SIGPIPE: "SIGPIPE", syscall.SIGALRM: "SIGALRM", syscall.SIGTERM: "SIGTERM",
}

func signalName(sig syscall.Signal) string {
	if name, ok := signalNames[sig]; ok {
		return name
	}
	if name, ok := unixSignalNames[sig]; ok {
		return name
	}
	return fmt.Sprintf("signal %d", int(sig))
}
