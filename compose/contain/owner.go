package contain

import (
	"bytes"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
)

// ownerVar marks every process procs starts, and through inheritance their
// descendants, with "instance:name:run". A process that escaped its process
// group (setsid, double fork) still carries it, so procs and its watchdog can
// find and stop it by reading its environment (osproc.Environ).
const ownerVar = "PROCS_OWNER"

// instanceID identifies this procs process among others on the machine.
func instanceID() string {
	return fmt.Sprintf("%d-%d", os.Getpid(), time.Now().UnixNano())
}

// ownerValue is the marker of one run of one process.
func ownerValue(instance, name string, run int) string {
	// The trailing colon keeps run 1 from matching run 10 as a prefix.
	return fmt.Sprintf("%s:%s:%d:", instance, name, run)
}

// findMarked lists the PIDs whose environment has a PROCS_OWNER value
// starting with prefix, excluding the calling process. It reads every
// process of the machine: the watchdog needs that, since once procs is gone
// its descendants belong to init.
func findMarked(prefix string) []int {
	return markedAmong(osproc.AllPIDs(), prefix)
}

// markedAmong returns the pids among candidates (but not the calling
// process) whose PROCS_OWNER value starts with prefix.
func markedAmong(candidates []int, prefix string) []int {
	needle := []byte(ownerVar + "=" + prefix)
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
