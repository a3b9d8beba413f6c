package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/internal/testenv"
)

// TestControlScripts runs the control-plane scripts, testdata/control_*.txtar:
// procs up -d, then client commands against the running procs.
func TestControlScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Files:     globFiles(t, "testdata/control_*.txtar"),
		Condition: testenv.ScriptCondition,
		Setup: func(env *testscript.Env) error {
			// Keep socket paths short and per test.
			env.Setenv("XDG_RUNTIME_DIR", env.WorkDir)
			return stopLeftoverAtEnd(env)
		},
	})
}

// stopLeftover terminates the procs whose pid file is at path, if any.
func stopLeftover(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
		_ = osproc.Signal(pid, syscall.SIGTERM)
	}
}

// A script that ran procs in a folder of its own (cd flask) and failed
// before its down leaves no procs behind: the cleanup finds the pid file
// wherever the script ran it.
func TestStopLeftoversFindsEveryProcsOfAScript(t *testing.T) {
	root := t.TempDir()
	var sleeps []*exec.Cmd
	for _, dir := range []string{".", "flask", filepath.Join("a", "b")} {
		cmd := exec.Command("sleep", "60")
		require.NoError(t, cmd.Start())
		sleeps = append(sleeps, cmd)
		state := filepath.Join(root, dir, ".procs")
		require.NoError(t, os.MkdirAll(state, 0o700))
		require.NoError(t, os.WriteFile(filepath.Join(state, "procs.pid"), []byte(strconv.Itoa(cmd.Process.Pid)), 0o600))
	}
	stopLeftovers(root)
	for _, cmd := range sleeps {
		ended := make(chan error, 1)
		go func() { ended <- cmd.Wait() }()
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("pid %d was left running", cmd.Process.Pid)
		}
	}
}
