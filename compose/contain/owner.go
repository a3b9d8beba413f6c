package contain

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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
//
// Looks asked for at once share one read (see markedScan): without a
// cgroup, each stop of a run looks for its processes outside its group,
// and a shutdown of two hundred runs made two hundred reads of every
// process's environment, one after another (a quarter of a second).
func FindMarked(prefix string) []int { return withPrefix(scanMarked(), prefix) }

// markedScan is the last read of the owner markers of every process.
var markedScan struct {
	mu sync.Mutex
	// began is when the last read began: a process started before then is
	// in it, if it still ran when the read came to it.
	began time.Time
	// markers holds the PROCS_OWNER value of each marked process.
	markers map[int]string
	reads   int // how many reads were made (for tests)
	// asks counts the looks asked for, read or shared (for tests: a look
	// has asked once it counts here, before it waits for a read).
	asks atomic.Int64
}

// scanMarked returns the owner markers of every marked process but this
// one, from a read that began after the call: it sees every process that
// ran when it was asked. Callers that ask while a read is under way wait
// for it, and then share the next one.
func scanMarked() map[int]string {
	asked := time.Now()
	markedScan.asks.Add(1)
	markedScan.mu.Lock()
	defer markedScan.mu.Unlock()
	if markedScan.began.After(asked) {
		return markedScan.markers
	}
	markedScan.began = time.Now()
	markedScan.markers = markersAmong(osproc.AllPIDs())
	markedScan.reads++
	return markedScan.markers
}

// markersAmong returns the PROCS_OWNER value of each marked process among
// candidates, but not of the calling process. One buffer serves every
// read: a look through all the machine's processes is what a clean
// shutdown waits for last (the watchdog's last look), and a laptop has
// hundreds of them.
func markersAmong(candidates []int) map[int]string {
	markers := make(map[int]string)
	self := os.Getpid()
	buf := make([]byte, 0, environBuffer)
	for _, pid := range candidates {
		if pid == self {
			continue
		}
		var marker string
		var ok bool
		if marker, buf, ok = markerOf(pid, buf); ok {
			markers[pid] = marker
		}
	}
	return markers
}

// environBuffer holds most environments whole: each is then read in one
// system call (see osproc.AppendEnviron).
const environBuffer = 16 << 10

// markedAmong returns the pids among candidates (but not the calling
// process) whose PROCS_OWNER value starts with prefix.
func markedAmong(candidates []int, prefix string) []int {
	return withPrefix(markersAmong(candidates), prefix)
}

// withPrefix returns, in order, the pids whose marker starts with prefix.
func withPrefix(markers map[int]string, prefix string) []int {
	var pids []int
	for pid, marker := range markers {
		if strings.HasPrefix(marker, prefix) {
			pids = append(pids, pid)
		}
	}
	slices.Sort(pids)
	return pids
}

// markerOf returns the PROCS_OWNER value pid was started with, reading its
// environment into buf, which it returns for the next read.
func markerOf(pid int, buf []byte) (string, []byte, bool) {
	env := osproc.AppendEnviron(buf[:0], pid)
	key := []byte(OwnerVar + "=")
	for kv := range bytes.SplitSeq(env, []byte{0}) {
		if value, ok := bytes.CutPrefix(kv, key); ok {
			return string(value), env, true
		}
	}
	return "", env, false
}

// signalAll sends sig to every pid, ignoring those already gone.
func signalAll(pids []int, sig syscall.Signal) {
	for _, pid := range pids {
		_ = osproc.Signal(pid, sig)
	}
}
