package contain

import (
	"bufio"
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

// watchdog is a small helper process (procs re-executed in a hidden mode)
// that holds a pipe from procs. When procs disappears in any way, SIGKILL
// included, the pipe reaches EOF and the watchdog stops every process group
// procs recorded and every process marked with its instance ID.
type watchdog struct {
	// mu orders the lines written to the pipe; a leaf of the spawner's
	// lock order (see spawner).
	mu  sync.Mutex
	cmd *exec.Cmd
	w   io.WriteCloser
}

// startWatchdog starts the watchdog for the processes of instance.
// Where each run is a job object that dies with procs (Windows), there is
// nothing for a watchdog to do, and it returns nil (a nil *watchdog
// ignores every call).
func startWatchdog(instance string) (*watchdog, error) {
	if osproc.Features().Jobs {
		return nil, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("start watchdog: %w", err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(withoutVar(os.Environ(), OwnerVar), WatchdogVar+"=1")
	// Its own process group: a Ctrl-C at the terminal must not reach it.
	cmd.SysProcAttr = osproc.OwnGroupAttrs()
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start watchdog: %w", err)
	}
	if err := getSpawner().start(cmd, Owner{}, cmd.Start); err != nil {
		return nil, fmt.Errorf("start watchdog: %w", err)
	}
	wd := &watchdog{cmd: cmd, w: w}
	wd.send("I " + instance)
	return wd, nil
}

// track records a process group to kill if procs dies.
func (wd *watchdog) track(pgid int) { wd.send("+" + strconv.Itoa(pgid)) }

// untrack forgets a process group that has been stopped.
func (wd *watchdog) untrack(pgid int) { wd.send("-" + strconv.Itoa(pgid)) }

func (wd *watchdog) send(line string) {
	if wd == nil {
		return
	}
	wd.mu.Lock()
	defer wd.mu.Unlock()
	_, _ = io.WriteString(wd.w, line+"\n")
}

// close ends the watchdog after a clean shutdown.
func (wd *watchdog) close() error {
	if wd == nil {
		return nil
	}
	wd.mu.Lock()
	err := wd.w.Close()
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
	ShedBinaryPages()
	runWatchdog(os.Stdin)
	os.Exit(0)
}

// runWatchdog reads the protocol until EOF, then stops what is left:
// "I instance" names the marker to look for, "+PGID"/"-PGID" track process
// groups, "C DIR" is the cgroup of procs' runs, "P PID START" a process
// re-parented to procs without a marker (START tells it from a later
// process with its pid).
func runWatchdog(r io.Reader) {
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
	w.kill()
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
