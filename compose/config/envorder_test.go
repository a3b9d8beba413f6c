package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExpansionOrder pins which layer a ${VAR} in a process's values comes
// from: its env:, the global env:, the environment, its envFile, the global
// envFile, then .env beside procs.yaml.
func TestExpansionOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write(".env", "A=dotenv\nB=dotenv\nC=dotenv\nD=dotenv\nE=dotenv\nF=dotenv\n")
	write("global.env", "A=global-file\nB=global-file\nC=global-file\nD=global-file\nE=global-file\n")
	write("own.env", "A=own-file\nB=own-file\nC=own-file\nD=own-file\n")
	write("procs.yaml", `
envFile: global.env
env: {A: global-env, B: global-env, REF: "${F}"}
procs:
  p:
    envFile: own.env
    env: {A: own-env, OWNREF: "${B}"}
    command: echo ${A} ${B} ${C} ${D} ${E} ${F} ${REF} ${OWNREF}
`)
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{"A=os", "B=os", "C=os"}})
	require.NoError(t, err)
	assert.Equal(t, "echo own-env global-env os own-file global-file dotenv dotenv global-env", cfg.Procs["p"].Command.Shell)
	assert.Equal(t, filepath.Join(dir, ".env"), cfg.DotEnv)
	assert.Empty(t, cfg.Warnings)
}

func TestExtensionKeys(t *testing.T) {
	cfg, err := Parse("procs.yaml", []byte(`
x-base: &base {kind: task, readyTimeout: 5s}
procs:
  a:
    <<: *base
    x-note: anything at all
    command: "true"
`), nil)
	require.NoError(t, err)
	assert.Equal(t, KindTask, cfg.Procs["a"].Kind)

	_, err = Parse("procs.yaml", []byte("procs:\n  a:\n    command: \"true\"\n    env:\n      x-not-here: {}\n"), nil)
	require.Error(t, err, "x- keys are extensions only at the top level and in a process")
}

// TestEnvFileWithANulByteIsAConfigError: an env file holding a NUL byte is
// a config error; it once passed procs check and the process never started.
func TestEnvFileWithANulByteIsAConfigError(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.env"), []byte("TOKEN=ab\x00cd\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), []byte("procs:\n  a:\n    command: sleep 1\n    envFile: app.env\n"), 0o644))
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "procs.yaml:4:14: procs.a.envFile: env file app.env is not in dotenv format")
	assert.Contains(t, err.Error(), `"TOKEN" holds a NUL byte`)
}
