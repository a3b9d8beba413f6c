package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func loadValid(t *testing.T, name string, environ ...string) *Config {
	t.Helper()
	cfg, err := Load(LoadOptions{File: filepath.Join("testdata", "valid", name), Environ: environ})
	require.NoError(t, err)
	return cfg
}

func TestValidFull(t *testing.T) {
	cfg := loadValid(t, "full.yaml", "DB_PORT=6543")
	dir, err := filepath.Abs(filepath.Join("testdata", "valid"))
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "full.yaml"), cfg.File)
	assert.Equal(t, dir, cfg.Dir)
	assert.Equal(t, "./schema/procs.schema.json", cfg.Schema)
	assert.Equal(t, map[string]string{"NODE_ENV": "development", "DEBUG": "1"}, cfg.Env)
	assert.Equal(t, filepath.Join(dir, ".env"), cfg.EnvFile)
	assert.Equal(t, []string{"agent", "api", "db", "migrate", "web"}, cfg.Names())

	db := cfg.Procs["db"]
	assert.Equal(t, Command{Shell: "postgres -D .data/pg -p 6543"}, db.Command, "the environment beats env files")
	assert.Equal(t, 6543, db.Port, "an expanded ${VAR} converts to a number")
	assert.Equal(t, filepath.Join(dir, "db.env"), db.EnvFile)
	assert.Nil(t, db.Env, "env files are not merged into Env")

	api := cfg.Procs["api"]
	assert.Equal(t, "api", api.Name)
	assert.Equal(t, Command{Argv: []string{"go", "run", "./cmd/api"}}, api.Command)
	assert.Equal(t, filepath.Join(dir, "api"), api.Cwd)
	assert.Equal(t, map[string]string{"PORT": "8080", "GREETING": "hello world"}, api.Env, "global envFile feeds ${VAR}")
	assert.Equal(t, Dependencies{
		{Name: "db", Condition: ConditionReady, Restart: true},
		{Name: "migrate", Condition: ConditionCompleted},
	}, api.DependsOn)
	assert.Equal(t, 8080, api.Port)
	assert.Equal(t, []string{"listening on .*:8080"}, api.ReadyPatterns)
	assert.Equal(t, []string{"panic:", "address already in use"}, api.ErrorPatterns)
	assert.Equal(t, `port.open && log.matches("listening") && elapsed > duration("200ms")`, api.Ready)
	assert.Equal(t, 30*time.Second, api.ReadyTimeout.D())
	assert.Equal(t, 300*time.Millisecond, api.StabilityDelay.D())
	assert.Equal(t, RestartPolicy{Policy: RestartOnFailure, MaxRestarts: 5,
		Backoff: BackoffRange{Min: 500 * time.Millisecond, Max: 30 * time.Second}}, api.Restart)
	assert.Equal(t, &Healthcheck{HTTP: "http://127.0.0.1:8080/health", Interval: Duration(5 * time.Second), Failures: 3}, api.Healthcheck)
	assert.Equal(t, Shutdown{Signal: "SIGINT", Timeout: Duration(3 * time.Second)}, api.Shutdown)
	assert.Equal(t, KindService, api.Kind)
	assert.Equal(t, "auto", api.Framework)

	assert.Equal(t, KindTask, cfg.Procs["migrate"].Kind)
	assert.Equal(t, Dependencies{{Name: "db", Condition: ConditionReady}}, cfg.Procs["migrate"].DependsOn)

	web := cfg.Procs["web"]
	assert.Equal(t, Dependencies{{Name: "api", Condition: ConditionReady}}, web.DependsOn, "list form means ready")
	assert.Equal(t, RestartPolicy{Policy: RestartAlways}, web.Restart)

	agent := cfg.Procs["agent"]
	assert.Equal(t, PTY{Enabled: true, Set: true}, agent.PTY)
	assert.Equal(t, "vite", agent.Framework)
	assert.Equal(t, []AutoRespond{{Match: "Do you trust the files in this folder", Send: "\r", Once: true, MaxTimes: 2}}, agent.AutoRespond)
	assert.Equal(t, BackoffRange{Min: 2 * time.Second, Max: 30 * time.Second}, agent.Restart.Backoff, "a single duration is the minimum")
	assert.Equal(t, Shutdown{Signal: "SIGINT", Timeout: Duration(10 * time.Second)}, agent.Shutdown)
	assert.Equal(t, Command{Argv: []string{"sh", "-c", "true"}}, agent.Healthcheck.Exec)
}

func TestValidDefaults(t *testing.T) {
	cfg := loadValid(t, "minimal.yaml")
	web := cfg.Procs["web"]
	assert.Equal(t, &Proc{
		Name:      "web",
		Command:   Command{Shell: "python3 -m http.server 8000"},
		Cwd:       cfg.Dir,
		Kind:      KindService,
		Framework: "auto",
		Restart:   RestartPolicy{Policy: RestartNo},
		Shutdown:  Shutdown{Signal: "SIGTERM", Timeout: Duration(10 * time.Second)},
	}, web)
}

func TestValidShapes(t *testing.T) {
	cfg := loadValid(t, "shapes.yaml")
	build := cfg.Procs["build.assets"]
	assert.Equal(t, Command{Argv: []string{"sh", "-c", "echo building\n"}}, build.Command)
	assert.Equal(t, 90*time.Second, build.ReadyTimeout.D())

	server := cfg.Procs["server"]
	assert.Equal(t, Dependencies{{Name: "build.assets", Condition: ConditionReady}}, server.DependsOn, "an empty map value means ready")
	assert.Equal(t, RestartOnFailure, server.Restart.Policy)
	assert.Equal(t, "SIGTERM", server.Shutdown.Signal, "TERM is normalised")
	assert.Equal(t, []string{"Choose a theme"}, server.NotReadyPatterns)

	checker := cfg.Procs["checker"]
	assert.Equal(t, Command{Argv: []string{"sleep", "10"}}, checker.Command, "numbers in argv are kept as written")
	assert.Equal(t, Dependencies{
		{Name: "build.assets", Condition: ConditionCompleted},
		{Name: "server", Condition: ConditionStarted},
	}, checker.DependsOn)
	assert.Equal(t, &Healthcheck{TCP: "127.0.0.1:3000", Timeout: Duration(time.Second)}, checker.Healthcheck)
	assert.Equal(t, RestartPolicy{Policy: RestartNo, MaxRestarts: 2}, checker.Restart)
}

// TestValidFilesParse checks every valid file also parses on its own.
func TestValidFilesParse(t *testing.T) {
	files, err := filepath.Glob("testdata/valid/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		_, err = Parse(file, data, []string{"DB_PORT=5433"})
		assert.NoError(t, err, file)
	}
}
