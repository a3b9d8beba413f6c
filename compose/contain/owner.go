package contain

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
)

// OwnerVar marks every process procs starts, and through inheritance their
// descendants, with Owner.String(), "instance:name:run:". A process that
// escaped its process group (setsid, double fork) still carries it, so
// procs and its watchdog can find and stop it by reading its environment
// (osproc.Environ).
const OwnerVar = "PROCS_OWNER"

// NewInstance returns an ID for an engine of this procs process, unique
// among the engines on the machine; it starts with the pid.
func NewInstance() string {
	return fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
}

// FindMarked lists the PIDs whose environment has a PROCS_OWNER value
// starting with prefix, excluding the calling process. It reads every
// process of the machine: the watchdog needs that, since once procs is gone
// its descendants belong to init.
func FindMarked(prefix string) []int {
	return markedAmong(osproc.AllPIDs(), prefix)
}

// markedAmong returns the pids among candidates (but not the calling
// process) whose PROCS_OWNER value starts with prefix.
func markedAmong(candidates []int, prefix string) []int {
	needle := []byte(OwnerVar + "=" + prefix)
	self := os.Getpid()
	var pids []int
	for _, pid := range candidates {
		if pid == self {
			continue
		}
		env, err := osproc.Environ(pid)
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.HasPrefix(kv, needle) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

// signalAll sends sig to every pid, ignoring those already gone.
func signalAll(pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		_ = osproc.Signal(pid, sig)
	}
}
