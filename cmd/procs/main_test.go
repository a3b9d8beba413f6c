package main

import (
	"io/fs"
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
// stop every procs it left running, in its folder or in any folder below
// it where it ran one (cd flask; exec procs up -d).
func stopLeftoverAtEnd(env *testscript.Env) error {
	env.Defer(func() { stopLeftovers(env.WorkDir) })
	return nil
}

// stopLeftovers terminates every procs whose pid file is below root.
func stopLeftovers(root string) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil // a folder the script removed or closed: go on
		case d.IsDir() && d.Name() == "node_modules":
			return filepath.SkipDir
		case !d.IsDir() && d.Name() == "procs.pid" && filepath.Base(filepath.Dir(path)) == ".procs":
			stopLeftover(path)
		}
		return nil
	})
}
