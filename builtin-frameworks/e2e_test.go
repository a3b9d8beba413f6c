package frameworks_test

// End-to-end tests: real servers run under the procs engine with
// framework: auto and no patterns of their own, so that only the preset
// decides when they are ready and when they have failed. They need the
// programs installed (.ci/run installs them); locally a missing program
// skips its test, in CI it fails it (internal/testenv).

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/rules"
)

func TestMain(m *testing.M) {
	// The engine re-executes the test binary as its watchdog.
	contain.RunWatchdogIfRequested()
	os.Exit(m.Run())
}

// e2eLimit bounds every wait. Generous: the machine is shared and slow, and
// a database may take a while to start; no test asserts how long anything took.
const e2eLimit = 120 * time.Second

// procsRun is one engine running a procs.yaml written into a folder.
type procsRun struct {
	t      *testing.T
	engine *compose.Engine
	sub    *compose.Subscription
	seen   []compose.Event // state events taken from sub so far
	cancel context.CancelFunc
	done   chan struct{}
	// pids holds every process seen in the trees of the runs, so the end of
	// the test can check that none outlived the engine.
	pids map[int]string
}

// startProcs writes yamlText to dir/procs.yaml and runs an engine on it. The
// engine is stopped, and every process it started checked gone, when the
// test ends. A process "keepalive" is added: a project rarely has only the
// failing process, and with it the engine keeps running, and answering
// status, after the process under test has failed.
func startProcs(t *testing.T, dir, yamlText string) *procsRun {
	t.Helper()
	yamlText += "  keepalive: {command: \"sleep 3600\", framework: none}\n"
	file := filepath.Join(dir, "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(yamlText), 0o644))
	cfg, err := config.Load(config.LoadOptions{File: file, Environ: os.Environ()})
	require.NoError(t, err)
	e, err := compose.New(cfg, compose.Options{})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	r := &procsRun{t: t, engine: e, sub: e.Bus().Subscribe(false), cancel: cancel,
		done: make(chan struct{}), pids: map[int]string{}}
	go func() {
		defer close(r.done)
		_, err := e.Run(ctx)
		assert.NoError(t, err)
	}()
	t.Cleanup(r.stop)
	return r
}

// stop ends the engine and checks that nothing it started is left.
func (r *procsRun) stop() {
	if list, err := r.engine.Status(); err == nil {
		for _, st := range list {
			r.recordTree(st)
		}
	}
	r.cancel()
	select {
	case <-r.done:
	case <-time.After(e2eLimit):
		r.t.Error("the engine did not stop")
		return
	}
	for pid, what := range r.pids {
		assert.Eventually(r.t, func() bool { return !alive(pid) }, 10*time.Second, 20*time.Millisecond,
			"pid %d (%s) outlived procs", pid, what)
	}
}

// waitReady waits for run 1 of name to be ready, or to end trying, and
// returns the result procs gives its callers. While the process runs it
// records its process tree for the check at the end of the test.
func (r *procsRun) waitReady(name string) rules.Result {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e2eLimit)
	defer cancel()
	res, err := r.engine.Wait(ctx, name, []rules.State{rules.StateReady}, 1)
	require.NoError(r.t, err)
	if st, err := r.engine.StatusOf(name); err == nil {
		r.recordTree(st)
	}
	return res
}

// recordTree remembers the processes of a running process's tree.
func (r *procsRun) recordTree(st compose.ProcStatus) {
	if st.PID == 0 {
		return
	}
	for _, pid := range processTree(st.PID) {
		r.pids[pid] = st.Name + ": " + commandLine(pid)
	}
}

// waitEnd waits for name to reach a state it stays in without a restart.
func (r *procsRun) waitEnd(name string) compose.Event {
	r.t.Helper()
	return r.waitEvent(name+" failed, stopped or completed", func(ev compose.Event) bool {
		return ev.Proc == name && slices.Contains([]rules.State{rules.StateFailed, rules.StateStopped, rules.StateCompleted}, ev.To)
	})
}

// waitEvent returns the first state event (since the start) that matches.
func (r *procsRun) waitEvent(desc string, match func(compose.Event) bool) compose.Event {
	r.t.Helper()
	deadline := time.After(e2eLimit)
	for {
		for _, ev := range r.seen {
			if match(ev) {
				return ev
			}
		}
		select {
		case <-r.sub.Ready():
			evs, _ := r.sub.Next()
			for _, ev := range evs {
				if ev.Type == compose.EventState {
					r.seen = append(r.seen, ev)
				}
			}
		case <-deadline:
			r.t.Fatalf("timed out waiting for %s; states so far: %v", desc, r.states(""))
		}
	}
}

// states lists the states name went through (every process's when name is
// empty), as far as seen.
func (r *procsRun) states(name string) []string {
	var out []string
	for _, ev := range r.seen {
		if name == "" || ev.Proc == name {
			out = append(out, fmt.Sprintf("%s:%s(%s)", ev.Proc, ev.To, ev.Reason))
		}
	}
	return out
}

// requireReadyBy checks that name is ready, by the preset it should have
// picked, and returns its status.
func (r *procsRun) requireReadyBy(name, preset string) (rules.Result, compose.ProcStatus) {
	r.t.Helper()
	res := r.waitReady(name)
	logs, _ := r.engine.Logs(name, 0)
	require.True(r.t, res.Success, "%s not ready: %+v\nlogs: %s", name, res, lineTexts(logs))
	assert.Equal(r.t, rules.StateReady, res.State)
	st, err := r.engine.StatusOf(name)
	require.NoError(r.t, err)
	assert.Equal(r.t, preset, st.Preset, "the preset procs picked")
	return res, st
}

// requireFailedNeverReady checks that name ends failed and was never ready,
// and returns the failing event.
func (r *procsRun) requireFailedNeverReady(name, preset string) compose.Event {
	r.t.Helper()
	ev := r.waitEnd(name)
	assert.Equal(r.t, rules.StateFailed, ev.To, "%s: %v", name, r.states(name))
	for _, s := range r.seen {
		if s.Proc == name {
			assert.NotEqual(r.t, rules.StateReady, s.To, "a failing run is never ready: %v", r.states(name))
		}
	}
	st, err := r.engine.StatusOf(name)
	require.NoError(r.t, err)
	assert.Equal(r.t, preset, st.Preset, "the preset procs picked")
	return ev
}

func lineTexts(lines []rules.Line) string {
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	return strings.Join(texts, "\n")
}

// assertPorts checks the ports procs reports for a ready process: the one it
// really listens on, never the one another program holds.
func assertPorts(t *testing.T, ports []int, want int, notWant ...int) {
	t.Helper()
	assert.Contains(t, ports, want, "the port it listens on")
	for _, p := range notWant {
		assert.NotContains(t, ports, p, "a port another program holds")
	}
}

// requireStatusPorts waits for the status of name to list exactly port: for
// runs made ready by their ports, the engine has them and must report them.
func (r *procsRun) requireStatusPorts(name string, port int) {
	r.t.Helper()
	var last []int
	require.Eventually(r.t, func() bool {
		st, err := r.engine.StatusOf(name)
		last = st.Ports
		return err == nil && slices.Equal(st.Ports, []int{port})
	}, e2eLimit, 20*time.Millisecond, "status ports of %s: %v, want [%d]", name, last, port)
}

// freePort returns a TCP port nothing listens on right now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	return port
}

// occupy listens on a free port until the test ends and returns it: another
// program holding the port a server wants.
func occupy(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// requirePortFree checks that nothing listens on port any more.
func requirePortFree(t *testing.T, port int) {
	t.Helper()
	assert.Eventually(t, func() bool {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return false
		}
		ln.Close()
		return true
	}, 10*time.Second, 20*time.Millisecond, "port %d still taken", port)
}

// processTree returns pid and all its descendants, from /proc.
func processTree(pid int) []int {
	parents := map[int][]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(child); ok {
			parents[ppid] = append(parents[ppid], child)
		}
	}
	tree := []int{pid}
	for i := 0; i < len(tree); i++ {
		tree = append(tree, parents[tree[i]]...)
	}
	return tree
}

// parentOf reads the parent pid from /proc/PID/stat.
func parentOf(pid int) (int, bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// The command name, in parentheses, may hold spaces: fields start after
	// the last ')'.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(fields[1])
	return ppid, err == nil
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

func commandLine(pid int) string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " "))
}
