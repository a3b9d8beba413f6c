package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResources(t *testing.T) {
	dir := writeProject(t, map[string]string{"procs.yaml": `resources: {memory: 1G, cpu: 2, pids: 500}
procs:
  api:
    command: ./api
    resources: {memory: 512M, cpu: 1.5}
  worker:
    command: ./worker
    resources:
      memory: 64MiB
  plain:
    command: ./plain
`})
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	require.NoError(t, err)
	assert.Equal(t, Resources{Memory: 512 << 20, CPU: 1.5, Pids: 500}, cfg.ResourcesOf(cfg.Procs["api"]), "a process's own keys override the default one by one")
	assert.Equal(t, Resources{Memory: 64 << 20, CPU: 2, Pids: 500}, cfg.ResourcesOf(cfg.Procs["worker"]))
	assert.Equal(t, Resources{Memory: 1 << 30, CPU: 2, Pids: 500}, cfg.ResourcesOf(cfg.Procs["plain"]), "the top-level resources: is the default")
	assert.Equal(t, []string{"memory", "cpu", "pids"}, cfg.LimitedResources().Names())

	cfg, err = Load(LoadOptions{Dir: dir, Environ: []string{"PROCS_PROCS__PLAIN__RESOURCES__CPU=0.25"}, Set: []string{"procs.api.resources.pids=20"}})
	require.NoError(t, err)
	assert.Equal(t, 0.25, cfg.ResourcesOf(cfg.Procs["plain"]).CPU, "a variable gives the number as text")
	assert.Equal(t, 20, cfg.ResourcesOf(cfg.Procs["api"]).Pids, "so does --set")
}

func TestResourcesDiff(t *testing.T) {
	parse := func(text string) *Config {
		t.Helper()
		cfg, err := Parse("procs.yaml", []byte(text), nil)
		require.NoError(t, err)
		return cfg
	}
	old := parse("resources: {memory: 1G}\nprocs:\n  api: {command: ./api}\n  web: {command: ./web, resources: {memory: 2G}}\n")
	next := parse("resources: {memory: 2G}\nprocs:\n  api: {command: ./api}\n  web: {command: ./web, resources: {memory: 2G}}\n")
	d := DiffConfigs(old, next)
	assert.Equal(t, []string{"api"}, d.Changed, "a new default restarts the processes it applies to")
	assert.Equal(t, []string{"web"}, d.Unchanged, "one with its own memory keeps running")
}
