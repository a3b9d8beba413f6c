package contain

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
)

// WatchdogVar makes the procs binary act as the watchdog instead of the
// CLI (WatchdogVar=1); a child must not inherit it.
const WatchdogVar = "PROCS_INTERNAL_WATCHDOG"

// watchdogGrace is how long the watchdog lets orphans shut down after
// SIGTERM before it kills them.
const watchdogGrace = 2 * time.Second

// The watchdog inherits the two files of the journal as descriptors 3 and
// 4 (cmd.ExtraFiles), and on Linux the procs binary as descriptor 5.
const (
	journalFD = 3
	binaryFD  = 5
)

// watchdogScript is the idle watchdog: sh (a small process, where procs
// would take megabytes) waits on a pipe from procs. "close" on it means a
// clean shutdown; its end without one means procs died, in any way, and sh
// then executes procs ($1) as the watchdog, which reads the journal and
// stops what it records. Signals from a terminal or a process manager are
// for procs, not for it.
const watchdogScript = `trap '' INT TERM HUP QUIT
while read -r line; do [ "$line" = close ] && exit 0; done
exec "$1"`

// watchdog is a small helper process that holds a pipe from procs and
// shares the journal with it. When procs disappears in any way, SIGKILL
// included, the pipe reaches EOF and the watchdog stops every process
// group the journal records and every process marked with its instance ID.
type watchdog struct {
	// mu orders the writes to the journal and the pipe; a leaf of the
	// spawner's lock order (see spawner).
	mu      sync.Mutex
	journal *journal
	closed  bool
	cmd     *exec.Cmd
	w       io.WriteCloser
}

// startWatchdog starts the watchdog for the processes of instance.
// Where each run is a job object that dies with procs (Windows), there is
// nothing for a watchdog to do, and it returns nil (a nil *watchdog
// ignores every call).
func startWatchdog(instance string) (*watchdog, error) {
	if osproc.Features().Jobs {
		return nil, nil
	}
	j, err := newJournal("I " + instance)
	if err != nil {
		return nil, fmt.Errorf("start watchdog: %w", err)
	}
	wd, err := spawnWatchdog(j)
	if err != nil {
		j.close()
		return nil, fmt.Errorf("start watchdog: %w", err)
	}
	return wd, nil
}

// spawnWatchdog starts the watchdog process sharing j: sh running
// watchdogScript or, where there is no sh, the procs binary itself, which
// then waits as the script does.
func spawnWatchdog(j *journal) (*watchdog, error) {
	binary, file, err := watchdogBinary(binaryFD)
	if err != nil {
		return nil, err
	}
	if file != nil {
		defer file.Close() // the watchdog has its own once started
	}
	cmd := exec.Command(binary)
	if osproc.Shell() != "" {
		cmd = exec.Command(osproc.Shell(), "-c", watchdogScript, "procs-watchdog", binary)
	}
	// Descriptors journalFD, journalFD+1 and binaryFD (none if file is nil).
	cmd.ExtraFiles = []*os.File{j.files[0], j.files[1], file}
	cmd.Env = append(withoutVar(os.Environ(), OwnerVar), WatchdogVar+"=1")
	// Its own process group: a Ctrl-C at the terminal must not reach it.
	// No parent-death signal: it is there for procs' death.
	cmd.SysProcAttr = osproc.OwnGroupAttrs()
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := getSpawner().start(cmd, Owner{}, cmd.Start); err != nil {
		return nil, err
	}
	return &watchdog{journal: j, cmd: cmd, w: w}, nil
}

// track records a process group to kill if procs dies.
func (wd *watchdog) track(pgid int) { wd.send("+" + strconv.Itoa(pgid)) }

// untrack forgets a process group that has been stopped.
func (wd *watchdog) untrack(pgid int) { wd.send("-" + strconv.Itoa(pgid)) }

// send records one protocol line in the journal.
func (wd *watchdog) send(line string) {
	if wd == nil {
		return
	}
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if !wd.closed {
		wd.journal.append(line)
	}
}

// lastLook does, after a clean shutdown, what the watchdog would do: one
// last look for what the runs left (marked processes that escaped every
// stop), killing what it finds. A procs killed during it leaves the rest
// to the watchdog, which close tells to exit only after.
func (wd *watchdog) lastLook() {
	if wd == nil {
		return
	}
	wd.mu.Lock()
	left := readLeftovers(bytes.NewReader(wd.journal.current()))
	wd.mu.Unlock()
	left.kill()
}

// close ends the watchdog after a clean shutdown, once lastLook is done.
func (wd *watchdog) close() error {
	if wd == nil {
		return nil
	}
	wd.mu.Lock()
	wd.closed = true
	// A watchdog already gone (killed) has nothing to be told.
	_, _ = io.WriteString(wd.w, "close\n")
	err := wd.w.Close()
	wd.journal.close()
	wd.mu.Unlock()
	_ = wd.cmd.Wait()
	getSpawner().forget(wd.cmd.Process.Pid)
	return err
}

// RunWatchdogIfRequested turns this process into the watchdog when procs
// started it as one, and then exits. Call it first thing in main (and in
// TestMain of packages whose tests start engines).
func RunWatchdogIfRequested() {
	if os.Getenv(WatchdogVar) != "1" {
		return
	}
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	// Executed by sh, procs is gone already: its pipe is at its end.
	if closedCleanly(os.Stdin) {
		os.Exit(0)
	}
	journal := readJournal(os.NewFile(journalFD, "journal"), os.NewFile(journalFD+1, "journal"))
	runWatchdog(bytes.NewReader(journal))
	os.Exit(0)
}

// closedCleanly waits for the end of procs' pipe r, and reports whether
// procs said "close" before it.
func closedCleanly(r io.Reader) bool {
	scanner := bufio.NewScanner(r)
	for scanner.Scan() {
		if scanner.Text() == "close" {
			return true
		}
	}
	return false
}

// runWatchdog reads the protocol until EOF, then stops what is left.
func runWatchdog(r io.Reader) {
	w := readLeftovers(r)
	w.kill()
}

// readLeftovers reads the protocol until EOF: "I instance" names the
// marker to look for, "+PGID"/"-PGID" track process groups, "C DIR" is the
// cgroup of procs' runs, "P PID START" a process re-parented to procs
// without a marker (START tells it from a later process with its pid).
func readLeftovers(r io.Reader) leftovers {
	w := leftovers{groups: make(map[int]bool), unmarked: make(map[int]uint64)}
	scanner := bufio.NewScanner(r)
	for scanner.Scan() {
		line := scanner.Text()
		switch {
		case strings.HasPrefix(line, "I "):
			w.instance = strings.TrimPrefix(line, "I ")
		case strings.HasPrefix(line, "C "):
			w.cgroups = append(w.cgroups, strings.TrimPrefix(line, "C "))
		case strings.HasPrefix(line, "P "):
			var pid int
			var start uint64
			if _, err := fmt.Sscanf(line, "P %d %d", &pid, &start); err == nil && pid > 1 {
				w.unmarked[pid] = start
			}
		case strings.HasPrefix(line, "+"), strings.HasPrefix(line, "-"):
			pgid, err := strconv.Atoi(line[1:])
			if err == nil && pgid > 1 {
				w.groups[pgid] = line[0] == '+'
			}
		}
	}
	return w
}

// lines is the protocol that records w: the groups still tracked and the
// unmarked processes still running, not the ones procs has forgotten.
func (w *leftovers) lines() []byte {
	var b bytes.Buffer
	if w.instance != "" {
		fmt.Fprintf(&b, "I %s\n", w.instance)
	}
	for _, dir := range w.cgroups {
		fmt.Fprintf(&b, "C %s\n", dir)
	}
	for pid, start := range w.unmarked {
		if now, ok := osproc.StartTime(pid); ok && now == start {
			fmt.Fprintf(&b, "P %d %d\n", pid, start)
		}
	}
	for pgid, live := range w.groups {
		if live {
			fmt.Fprintf(&b, "+%d\n", pgid)
		}
	}
	return b.Bytes()
}

// leftovers is what the watchdog was told to stop should procs die.
type leftovers struct {
	instance string
	groups   map[int]bool
	unmarked map[int]uint64
	cgroups  []string
}

// kill sends SIGTERM to every live recorded group and marked process,
// waits a short grace, then SIGKILLs what remains, the unmarked processes
// and procs' cgroups (everything its runs started, wherever it went).
func (w *leftovers) kill() {
	targets := func() []int {
		var pids []int
		if w.instance != "" {
			pids = FindMarked(w.instance + ":")
		}
		return pids
	}
	for pgid, live := range w.groups {
		if live {
			_ = osproc.SignalGroup(pgid, syscall.SIGTERM)
		}
	}
	// After a clean shutdown nothing is left: one look (every process's
	// environment) says so, and no process of procs' is alive to start
	// another. Only what was found is given its grace, then killed.
	if marked := targets(); len(marked) > 0 || anyGroupAlive(w.groups) {
		signalAll(marked, syscall.SIGTERM)
		deadline := time.Now().Add(watchdogGrace)
		for time.Now().Before(deadline) && (len(targets()) > 0 || anyGroupAlive(w.groups)) {
			// No event tells a non-parent that an unrelated process died: poll.
			time.Sleep(50 * time.Millisecond)
		}
		for pgid, live := range w.groups {
			if live {
				_ = osproc.SignalGroup(pgid, syscall.SIGKILL)
			}
		}
		signalAll(targets(), syscall.SIGKILL)
	}
	for pid, start := range w.unmarked {
		if now, ok := osproc.StartTime(pid); ok && now == start {
			_ = osproc.Signal(pid, syscall.SIGKILL)
		}
	}
	for _, dir := range w.cgroups {
		killCgroup(dir)
		removeCgroup(dir)
	}
}

func anyGroupAlive(groups map[int]bool) bool {
	for pgid, live := range groups {
		if live && osproc.GroupAlive(pgid) {
			return true
		}
	}
	return false
}

// withoutVar returns environ without entries for name.
func withoutVar(environ []string, name string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return out
}
