// Package testenv is the one rule for tests that need something outside Go:
// a program, a python module, root, writable cgroups, a mount. Locally a
// missing facility skips the test, naming what is missing; under .ci/run,
// which installs everything and sets PROCS_REQUIRE_E2E=1, it fails the test,
// so CI can never pass by skipping. Skips that are not about a missing
// facility (-short, a long chaos run) stay ordinary t.Skip calls.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RequireEnv is the variable .ci/run sets to turn skips into failures.
const RequireEnv = "PROCS_REQUIRE_E2E"

// SystemPython is the python the end-to-end tests import Flask and
// psycopg2 with: Debian's, for which .ci/run installs python3-flask and
// the others (the python3 on PATH may be another one, e.g. pyenv's).
const SystemPython = "/usr/bin/python3"

// Required reports whether missing facilities must fail tests (CI).
func Required() bool { return os.Getenv(RequireEnv) == "1" }

// Missing skips the test with why, or fails it when Required.
func Missing(t testing.TB, why string) {
	t.Helper()
	if Required() {
		t.Fatalf("%s, and %s=1 forbids skipping", why, RequireEnv)
		return
	}
	t.Skip(why)
}

// Need goes on when ok; otherwise the test is Missing what, as in
// Need(t, "root (to mount a tmpfs)", os.Getuid() == 0).
func Need(t testing.TB, what string, ok bool) {
	t.Helper()
	if !ok {
		Missing(t, "needs "+what)
	}
}

// LookPath returns the path of program, looking in PATH and then in extra
// folders (globs allowed, e.g. /usr/lib/postgresql/*/bin). It skips the test
// when the program is missing, or fails it when Required.
func LookPath(t testing.TB, program string, extra ...string) string {
	t.Helper()
	if path, ok := lookPath(program, extra...); ok {
		return path
	}
	Missing(t, program+" is not installed (.ci/run installs it)")
	return ""
}

// lookPath finds program in PATH, then in the extra folders.
func lookPath(program string, extra ...string) (string, bool) {
	if path, err := exec.LookPath(program); err == nil {
		return path, true
	}
	for _, pattern := range extra {
		matches, _ := filepath.Glob(filepath.Join(pattern, program))
		for _, m := range matches {
			if info, err := os.Stat(m); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
				return m, true
			}
		}
	}
	return "", false
}

// PythonModules makes sure python (a path or a name in PATH) is installed
// and imports every module; the first it cannot import makes the test
// Missing, named.
func PythonModules(t testing.TB, python string, modules ...string) {
	t.Helper()
	python = LookPath(t, python)
	for _, module := range modules {
		if !HasPythonModule(python, module) {
			Missing(t, pythonModuleMissing(python, module))
		}
	}
}

// HasPythonModule reports whether python can import module.
func HasPythonModule(python, module string) bool {
	return exec.Command(python, "-c", "import "+module).Run() == nil
}

// pythonModuleMissing says which module python lacks.
func pythonModuleMissing(python, module string) string {
	return fmt.Sprintf("python module %s is not installed for %s (.ci/run installs it)", module, python)
}

// ScriptCondition is the Condition of testscript.Params, so that scripts
// need things the same way Go tests do:
//
//	[!pymodule:flask] skip 'flask is not installed for /usr/bin/python3'
//	[!program:node] skip 'needs node'
//
// pymodule:M holds when SystemPython imports M; program:P when P is in
// PATH. A condition that does not
// hold is an error (the script fails) when Required, so the skip it guards
// never runs in CI.
func ScriptCondition(cond string) (bool, error) {
	name, arg, _ := strings.Cut(cond, ":")
	var ok bool
	var why string
	switch name {
	case "pymodule":
		ok = HasPythonModule(SystemPython, arg)
		why = pythonModuleMissing(SystemPython, arg)
	case "program":
		_, ok = lookPath(arg)
		why = arg + " is not installed (.ci/run installs it)"
	default:
		return false, fmt.Errorf("unknown condition %q (testenv knows pymodule:MODULE and program:NAME)", cond)
	}
	if !ok && Required() {
		return false, fmt.Errorf("%s, and %s=1 forbids skipping", why, RequireEnv)
	}
	return ok, nil
}
