package rules

import "strings"

// Reason says in a word why a process is in its state, or what an info
// event is about. Every reason procs gives is one of the constants below:
// code that branches on a reason compares constants, never strings, and
// the message beside a reason is what a person reads.
type Reason string

// Reasons the detector gives with its verdicts.
const (
	ReasonStarting  Reason = "starting"
	ReasonReady     Reason = "ready"
	ReasonNotReady  Reason = "not-ready"
	ReasonAssumed   Reason = "assumed"
	ReasonTimeout   Reason = "timeout"
	ReasonError     Reason = "error"
	ReasonRecovered Reason = "recovered"
	// ReasonDaemonized is a service whose main process exited 0 leaving
	// a daemon behind, which procs cannot watch.
	ReasonDaemonized Reason = "daemonized"
	ReasonCrash      Reason = "crash"
	ReasonKilled     Reason = "killed"
	// ReasonMemoryLimit is a run the kernel killed at the memory limit of
	// its resources:.
	ReasonMemoryLimit Reason = "memory-limit"
	ReasonExited      Reason = "exited"
	ReasonCompleted   Reason = "completed"
	ReasonStopped     Reason = "stopped"
)

// Reasons of interactive runs (agents, shells, REPLs).
const (
	ReasonPrompt      Reason = "prompt"
	ReasonBusy        Reason = "busy"
	ReasonInput       Reason = "input"
	ReasonQuestion    Reason = "question"
	ReasonPermission  Reason = "permission"
	ReasonRecoverable Reason = "recoverable"
	ReasonUserExit    Reason = "user-exit"
)

// Reasons of a run's start and of its healthcheck, decided by the run's
// supervisor.
const (
	// ReasonStart is a run starting, or one that could not start (its
	// command not found, its environment unreadable).
	ReasonStart Reason = "start"
	// ReasonPortInUse is a run not started because another program holds
	// its port.
	ReasonPortInUse Reason = "port-in-use"
	// ReasonAwaitingPort is a run still starting whose ready line has
	// come, but not the port it stands for: its message says which.
	ReasonAwaitingPort Reason = "awaiting-port"
	// ReasonAwaitingProbe is a run still starting whose probe (its
	// healthcheck, or its preset's) has not passed: its message says
	// what the probe answered.
	ReasonAwaitingProbe Reason = "awaiting-probe"
	ReasonHealthcheck   Reason = "healthcheck"
	ReasonHealthy       Reason = "healthy"
)

// Reasons of the lifecycle decisions the engine makes.
const (
	ReasonStop       Reason = "stop"
	ReasonRestart    Reason = "restart"
	ReasonBackoff    Reason = "backoff"
	ReasonDependency Reason = "dependency"
	ReasonWaiting    Reason = "waiting"
	ReasonNotStarted Reason = "not started"
	ReasonDisabled   Reason = "disabled"
	// ReasonProfile is a process procs up left stopped because none of
	// its profiles is active.
	ReasonProfile Reason = "profile"
	// ReasonStopping is the info event of a failed run procs stops.
	ReasonStopping Reason = "stopping"
	// ReasonChanged is the info event of a definition that changed.
	ReasonChanged Reason = "changed"
	// ReasonGaveUp is the info event of a restart policy that reached
	// maxRestarts.
	ReasonGaveUp Reason = "gave-up"
	// ReasonWatch is the info event of a watch: restart.
	ReasonWatch Reason = "watch"
	// ReasonScheduled is a task that waits for its schedule, and marks the
	// info events of its scheduled times (a run started, skipped, missed).
	ReasonScheduled Reason = "scheduled"
	// ReasonIdle marks the info events of onIdle actions.
	ReasonIdle Reason = "idle"
	// ReasonAllReady marks the info event published once every wanted
	// process is ready (or completed, for tasks) for the first time.
	ReasonAllReady Reason = "all-ready"
	// ReasonAutoRespond marks the info event of an autoRespond answer.
	ReasonAutoRespond Reason = "autorespond"
	// ReasonLogFailed and ReasonLogResumed are the info events of a log
	// file that fails (a full disk) and writes again.
	ReasonLogFailed  Reason = "log-failed"
	ReasonLogResumed Reason = "log-resumed"
)

// With joins the reason and the message a person reads: "timeout: no
// ready line after 30s", or the message alone when it already begins
// with the reason, or the reason alone when there is no message.
func (r Reason) With(message string) string {
	switch {
	case r == "" || strings.HasPrefix(message, string(r)):
		return message
	case message == "":
		return string(r)
	}
	return string(r) + ": " + message
}
