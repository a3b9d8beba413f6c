package config

import (
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
