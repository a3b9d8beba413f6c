// Package testenv lets end-to-end tests say which real programs they need.
// Locally a missing program skips the test with a hint; under .ci/run, which
// installs everything and sets PROCS_REQUIRE_E2E=1, a missing program fails
// it, so CI can never pass by skipping.
package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RequireEnv is the variable .ci/run sets to turn skips into failures.
const RequireEnv = "PROCS_REQUIRE_E2E"

// Required reports whether missing programs must fail tests (CI).
func Required() bool { return os.Getenv(RequireEnv) == "1" }

// LookPath returns the path of program, looking in PATH and then in extra
// folders (globs allowed, e.g. /usr/lib/postgresql/*/bin). It skips the test
// when the program is missing, or fails it when Required.
func LookPath(t testing.TB, program string, extra ...string) string {
	t.Helper()
	if path, err := exec.LookPath(program); err == nil {
		return path
	}
	for _, pattern := range extra {
		matches, _ := filepath.Glob(filepath.Join(pattern, program))
		for _, m := range matches {
			if info, err := os.Stat(m); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
				return m
			}
		}
	}
	Missing(t, program+" is not installed (.ci/run installs it)")
	return ""
}

// Missing skips the test with why, or fails it when Required.
func Missing(t testing.TB, why string) {
	t.Helper()
	if Required() {
		t.Fatalf("%s, and %s=1 forbids skipping", why, RequireEnv)
	}
	t.Skip(why)
}
