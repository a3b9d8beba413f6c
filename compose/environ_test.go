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
// above procs' own environment, env: above it, and NO_COLOR beating a
// preset's FORCE_COLOR.
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
