package examples_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// procsBin is the procs binary TestMain builds once for every test: the
// examples are run the way a user runs them, through the CLI.
var procsBin string

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

// runTests builds procs into a temp folder, runs the tests, and removes it.
func runTests(m *testing.M) int {
	dir, err := os.MkdirTemp("", "procs-examples-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "examples: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	procsBin = filepath.Join(dir, "procs")
	build := exec.Command("go", "build", "-o", procsBin, "github.com/procsdev/procs/cmd/procs")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "examples: build procs: %v\n", err)
		return 1
	}
	return m.Run()
}
