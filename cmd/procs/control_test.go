package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

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
