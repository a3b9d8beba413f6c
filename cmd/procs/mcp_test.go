package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/procsdev/procs/internal/testenv"
)

// TestMCPScripts runs the scripts of `procs mcp`, testdata/mcp_*.txtar.
func TestMCPScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Files:     globFiles(t, "testdata/mcp_*.txtar"),
		Condition: testenv.ScriptCondition,
		Setup: func(env *testscript.Env) error {
			env.Setenv("XDG_RUNTIME_DIR", env.WorkDir)
			return stopLeftoverAtEnd(env)
		},
	})
}
