package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/procsdev/procs/compose/contain"
	"github.com/procsdev/procs/internal/testenv"
)

func TestMain(m *testing.M) {
	contain.RunWatchdogIfRequested()
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"procs": func() int { return run(os.Args[1:]) },
	}))
}

// TestScripts runs the CLI end-to-end scripts in testdata/cli_*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Files:     globFiles(t, "testdata/cli_*.txtar"),
		Condition: testenv.ScriptCondition,
		Setup:     stopLeftoverAtEnd,
	})
}

// stopLeftoverAtEnd makes a script that fails half-way, after procs up -d,
// stop the procs it left running in its folder.
func stopLeftoverAtEnd(env *testscript.Env) error {
	env.Defer(func() { stopLeftover(filepath.Join(env.WorkDir, ".procs", "procs.pid")) })
	return nil
}
