package compose

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
)

// TestProcessEnvLayers checks a run's environment: .env beside procs.yaml
// reaches it, env: beats .env, a preset's env is there, and NO_COLOR beats
// a preset's FORCE_COLOR.
func TestProcessEnvLayers(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"), []byte("FROM_DOTENV=1\nOVERRIDDEN=dotenv\n"), 0o644))
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), []byte("procs:\n  web:\n    command: sleep 1\n    env: {OVERRIDDEN: env}\n"), nil)
	require.NoError(t, err)
	t.Setenv("NO_COLOR", "1")
	env, _, err := processEnv(cfg, cfg.Procs["web"], map[string]string{"FORCE_COLOR": "1", "BROWSER": "none"}, "test", 1)
	require.NoError(t, err)
	assert.Contains(t, env, "FROM_DOTENV=1")
	assert.Contains(t, env, "OVERRIDDEN=env")
	assert.Contains(t, env, "BROWSER=none")
	assert.Contains(t, env, "NO_COLOR=1")
	assert.NotContains(t, env, "FORCE_COLOR=1", "NO_COLOR reaches the child without FORCE_COLOR beside it")
}

// A run's environment follows README's order, first wins: the process's
// env:, the global env:, the environment procs runs in, the process's
// envFile, the global envFile, then .env beside procs.yaml — as ${VAR} in
// procs.yaml does, so the two never disagree.
func TestProcessEnvFollowsTheDocumentedOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write(".env", "SHELL_WINS=dotenv\nGLOBAL_FILE_WINS=dotenv\nOWN_FILE_WINS=dotenv\nDOTENV_ONLY=dotenv\n")
	write("global.env", "GLOBAL_FILE_WINS=global-file\nOWN_FILE_WINS=global-file\n")
	write("own.env", "OWN_FILE_WINS=own-file\n")
	t.Setenv("SHELL_WINS", "shell")
	t.Setenv("GLOBAL_ENV_WINS", "shell")
	t.Setenv("OWN_ENV_WINS", "shell")
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), []byte(`
envFile: global.env
env: {GLOBAL_ENV_WINS: global-env, OWN_ENV_WINS: global-env}
procs:
  web:
    command: sleep 1
    envFile: own.env
    env: {OWN_ENV_WINS: own-env, EXPANDED: "${SHELL_WINS}"}
`), os.Environ())
	require.NoError(t, err)
	preset := map[string]string{"DOTENV_ONLY": "preset", "PRESET_ONLY": "preset"}
	env, _, err := processEnv(cfg, cfg.Procs["web"], preset, "test", 1)
	require.NoError(t, err)
	for _, want := range []string{
		"PRESET_ONLY=preset", // and whatever the user sets beats a preset:
		"OWN_ENV_WINS=own-env", "GLOBAL_ENV_WINS=global-env", "SHELL_WINS=shell",
		"OWN_FILE_WINS=own-file", "GLOBAL_FILE_WINS=global-file", "DOTENV_ONLY=dotenv",
		"EXPANDED=shell",
	} {
		assert.Contains(t, env, want)
	}
}

// BenchmarkProcessEnv makes the environment of one run, as every start
// does, in the environment the benchmark runs in (a shell's few dozen
// variables) with a preset's and the config's variables beside it.
func BenchmarkProcessEnv(b *testing.B) {
	cfg, err := config.Parse(filepath.Join(b.TempDir(), "procs.yaml"), []byte("env: {LOG_LEVEL: debug}\nprocs:\n  web:\n    command: sleep 1\n    env: {PORT: \"3000\"}\n"), nil)
	require.NoError(b, err)
	preset := map[string]string{"FORCE_COLOR": "1", "BROWSER": "none"}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := processEnv(cfg, cfg.Procs["web"], preset, "bench", 1); err != nil {
			b.Fatal(err)
		}
	}
}
