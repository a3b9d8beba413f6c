package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const diffBase = `env: {MODE: dev}
procs:
  db:
    command: sleep 100
    port: 5433
  cache:
    command: sleep 101
  api:
    command: sleep 102
    dependsOn:
      db: {condition: started, restart: true}
      cache: started
  web:
    command: sleep 103
    dependsOn:
      api: {condition: started, restart: true}
  worker:
    command: sleep 104
    dependsOn: {cache: started}
`

func parseDiffConfig(t *testing.T, text string) *Config {
	t.Helper()
	cfg, err := Parse("procs.yaml", []byte(text), nil)
	require.NoError(t, err)
	return cfg
}

// TestDiffConfigs says which edits restart what: only the edited process,
// plus those that follow it with restart: true (transitively); a change to
// what every process inherits changes them all.
func TestDiffConfigs(t *testing.T) {
	tests := []struct {
		name                    string
		from, to                string
		added, removed, changed []string
		dependents, unchanged   []string
		restarts                []string
		empty                   bool
	}{
		{
			name: "same file", from: diffBase, to: diffBase, empty: true,
			added: []string{}, removed: []string{}, changed: []string{}, dependents: []string{},
			unchanged: []string{"cache", "db", "api", "web", "worker"},
		},
		{
			name: "leaf command edited", from: diffBase,
			to:    replace(t, diffBase, "sleep 104", "sleep 105"),
			added: []string{}, removed: []string{}, changed: []string{"worker"}, dependents: []string{},
			unchanged: []string{"cache", "db", "api", "web"}, restarts: []string{"worker"},
		},
		{
			name: "db edited: api and web follow with restart: true", from: diffBase,
			to:    replace(t, diffBase, "port: 5433", "port: 5434"),
			added: []string{}, removed: []string{}, changed: []string{"db"}, dependents: []string{"api", "web"},
			unchanged: []string{"cache", "worker"}, restarts: []string{"db", "api", "web"},
		},
		{
			name: "cache edited: dependents without restart: true stay", from: diffBase,
			to:    replace(t, diffBase, "sleep 101", "sleep 99"),
			added: []string{}, removed: []string{}, changed: []string{"cache"}, dependents: []string{},
			unchanged: []string{"db", "api", "web", "worker"}, restarts: []string{"cache"},
		},
		{
			name: "global env edited changes everything", from: diffBase,
			to:    replace(t, diffBase, "MODE: dev", "MODE: prod"),
			added: []string{}, removed: []string{}, changed: []string{"cache", "db", "api", "web", "worker"},
			dependents: []string{}, unchanged: []string{}, restarts: []string{"cache", "db", "api", "web", "worker"},
		},
		{
			name: "process added and removed", from: diffBase,
			to:    replace(t, diffBase, "  worker:\n    command: sleep 104\n    dependsOn: {cache: started}\n", "  mail:\n    command: sleep 200\n"),
			added: []string{"mail"}, removed: []string{"worker"}, changed: []string{}, dependents: []string{},
			unchanged: []string{"cache", "db", "api", "web"},
		},
		{
			name: "dependsOn edited restarts the dependent only", from: diffBase,
			to:    replace(t, diffBase, "dependsOn: {cache: started}", "dependsOn: {cache: ready}"),
			added: []string{}, removed: []string{}, changed: []string{"worker"}, dependents: []string{},
			unchanged: []string{"cache", "db", "api", "web"}, restarts: []string{"worker"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to := parseDiffConfig(t, tt.from), parseDiffConfig(t, tt.to)
			d := DiffConfigs(from, to)
			assert.Equal(t, tt.added, d.Added, "added")
			assert.Equal(t, tt.removed, d.Removed, "removed")
			assert.Equal(t, tt.changed, d.Changed, "changed")
			assert.Equal(t, tt.dependents, d.Dependents, "dependents")
			assert.Equal(t, tt.unchanged, d.Unchanged, "unchanged")
			assert.Equal(t, tt.restarts, d.Restarts(to), "restarts")
			assert.Equal(t, tt.empty, d.Empty(), "empty")
		})
	}
}

// TestSameProcIgnoresEmptyVersusMissing: `env: {}` and no env are one definition.
func TestSameProcIgnoresEmptyVersusMissing(t *testing.T) {
	a := parseDiffConfig(t, "procs:\n  web:\n    command: sleep 1\n    env: {}\n")
	b := parseDiffConfig(t, "procs:\n  web:\n    command: sleep 1\n")
	assert.True(t, SameProc(a.Procs["web"], b.Procs["web"]))
}

func replace(t *testing.T, s, old, with string) string {
	t.Helper()
	out := strings.Replace(s, old, with, 1)
	require.NotEqual(t, s, out, "%q not found", old)
	return out
}

// TestDiffWithEnvChanged: a process whose env file was edited is changed,
// its restart: true dependents follow it (transitively), and the lists stay
// in start order.
func TestDiffWithEnvChanged(t *testing.T) {
	cfg := parseDiffConfig(t, diffBase)
	d := DiffConfigs(cfg, cfg)
	require.True(t, d.Empty())

	got := d.WithEnvChanged(cfg, []string{"db"})
	assert.Equal(t, []string{"db"}, got.Changed)
	assert.Equal(t, []string{"db"}, got.EnvChanged)
	assert.Equal(t, []string{"api", "web"}, got.Dependents)
	assert.Equal(t, []string{"cache", "worker"}, got.Unchanged)
	assert.Equal(t, []string{"db", "api", "web"}, got.Restarts(cfg))
	assert.Empty(t, d.EnvChanged, "the diff it was made from is left as it was")

	got = d.WithEnvChanged(cfg, []string{"worker", "cache"})
	assert.Equal(t, []string{"cache", "worker"}, got.Changed)
	assert.Empty(t, got.Dependents, "api follows cache's start, not its restart")

	assert.Equal(t, d, d.WithEnvChanged(cfg, nil))
	assert.Equal(t, d, d.WithEnvChanged(cfg, []string{"gone"}), "only processes of the diff's Unchanged move")
}

// TestEnvironmentLayers: .env, then the global envFile and env, then the
// process's envFile and env, read when asked (an edit shows).
func TestEnvironmentLayers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write(".env", "A=dotenv\nB=dotenv\nC=dotenv\nD=dotenv\n")
	write("shared.env", "B=shared\n")
	write("web.env", "C=web-file\n")
	write("procs.yaml", "envFile: shared.env\nenv: {D: global}\nprocs:\n  web:\n    command: sleep 1\n    envFile: web.env\n  api:\n    command: sleep 1\n    env: {D: api}\n")
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	require.NoError(t, err)
	env, err := cfg.Environment(cfg.Procs["web"])
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": "dotenv", "B": "shared", "C": "web-file", "D": "global"}, env)
	env, err = cfg.Environment(cfg.Procs["api"])
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"A": "dotenv", "B": "shared", "C": "dotenv", "D": "api"}, env)

	write("web.env", "C=edited\n")
	env, err = cfg.Environment(cfg.Procs["web"])
	require.NoError(t, err)
	assert.Equal(t, "edited", env["C"])

	require.NoError(t, os.Remove(filepath.Join(dir, "web.env")))
	_, err = cfg.Environment(cfg.Procs["web"])
	assert.ErrorContains(t, err, "web.env: no such file")
}
