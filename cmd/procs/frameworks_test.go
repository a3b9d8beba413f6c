package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/procsdev/procs/internal/testenv"
)

// TestFrameworksScripts runs testdata/frameworks_*.txtar: procs frameworks
// and procs detect on small projects, as a user runs them.
func TestFrameworksScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Files:     globFiles(t, "testdata/frameworks_*.txtar"),
		Condition: testenv.ScriptCondition,
		Setup:     stopLeftoverAtEnd,
	})
}
