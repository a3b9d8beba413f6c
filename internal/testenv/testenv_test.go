package testenv

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a testing.TB that writes down a skip or a failure instead of
// ending the test that called it.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Skip(args ...any) { r.skipped = fmt.Sprint(args...) }

func (r *recorder) Fatalf(format string, args ...any) { r.failed = fmt.Sprintf(format, args...) }

// outcome runs need against a recorder, locally and then as CI does.
func outcome(t *testing.T, need func(testing.TB)) (local, ci *recorder) {
	t.Helper()
	local, ci = &recorder{TB: t}, &recorder{TB: t}
	t.Setenv(RequireEnv, "")
	need(local)
	t.Setenv(RequireEnv, "1")
	need(ci)
	return local, ci
}

func TestMissingSkipsLocallyAndFailsUnderCI(t *testing.T) {
	local, ci := outcome(t, func(tb testing.TB) { Missing(tb, "tmux is not installed") })
	assert.Equal(t, "tmux is not installed", local.skipped)
	assert.Empty(t, local.failed)
	assert.Empty(t, ci.skipped)
	assert.Equal(t, "tmux is not installed, and PROCS_REQUIRE_E2E=1 forbids skipping", ci.failed)
}

func TestNeedNamesWhatIsMissing(t *testing.T) {
	local, ci := outcome(t, func(tb testing.TB) { Need(tb, "root (to mount a tmpfs)", false) })
	assert.Equal(t, "needs root (to mount a tmpfs)", local.skipped)
	assert.Contains(t, ci.failed, "needs root (to mount a tmpfs)")

	local, ci = outcome(t, func(tb testing.TB) { Need(tb, "root", true) })
	assert.Equal(t, recorder{TB: t}, *local, "what is there neither skips nor fails")
	assert.Equal(t, recorder{TB: t}, *ci)
}

func TestLookPathNamesTheProgram(t *testing.T) {
	local, ci := outcome(t, func(tb testing.TB) { LookPath(tb, "procs-no-such-program") })
	assert.Contains(t, local.skipped, "procs-no-such-program is not installed")
	assert.Contains(t, ci.failed, "procs-no-such-program is not installed")

	local, _ = outcome(t, func(tb testing.TB) { assert.NotEmpty(t, LookPath(tb, "go")) })
	assert.Empty(t, local.skipped, "go runs this test, so it is installed")
}

func TestPythonModulesNamesTheModule(t *testing.T) {
	python := LookPath(t, "python3")
	local, ci := outcome(t, func(tb testing.TB) { PythonModules(tb, python, "json", "procs_no_such_module") })
	assert.Equal(t, "python module procs_no_such_module is not installed for "+python+" (.ci/run installs it)", local.skipped)
	assert.Contains(t, ci.failed, "procs_no_such_module")

	local, _ = outcome(t, func(tb testing.TB) { PythonModules(tb, python, "json") })
	assert.Empty(t, local.skipped)
}

func TestScriptConditionFailsUnderCI(t *testing.T) {
	LookPath(t, SystemPython)
	t.Setenv(RequireEnv, "")
	ok, err := ScriptCondition("pymodule:json")
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = ScriptCondition("pymodule:procs_no_such_module")
	require.NoError(t, err, "locally the script's skip runs")
	assert.False(t, ok)

	t.Setenv(RequireEnv, "1")
	_, err = ScriptCondition("pymodule:procs_no_such_module")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "python module procs_no_such_module is not installed for /usr/bin/python3")

	_, err = ScriptCondition("flask")
	assert.ErrorContains(t, err, `unknown condition "flask"`)
}

func TestScriptConditionProgram(t *testing.T) {
	t.Setenv(RequireEnv, "")
	ok, err := ScriptCondition("program:sh")
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = ScriptCondition("program:procs-no-such-program")
	require.NoError(t, err, "locally the script's skip runs")
	assert.False(t, ok)

	t.Setenv(RequireEnv, "1")
	_, err = ScriptCondition("program:procs-no-such-program")
	assert.ErrorContains(t, err, "procs-no-such-program is not installed")
}
