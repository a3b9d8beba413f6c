package scaffold

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
)

// wantProc is what init should write for one process.
type wantProc struct {
	kind      config.Kind
	port      int
	command   string
	cwd       string
	dependsOn config.Dependencies
}

func ready(name string) config.Dependency {
	return config.Dependency{Name: name, Condition: config.ConditionReady}
}
func completed(name string) config.Dependency {
	return config.Dependency{Name: name, Condition: config.ConditionCompleted}
}

// generateConfig runs init on the sample and loads what it wrote.
func generateConfig(t *testing.T, dir string) (*config.Config, *Result) {
	t.Helper()
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err, "%s", res.YAML)
	return cfg, res
}

func assertProcs(t *testing.T, cfg *config.Config, want map[string]wantProc) {
	t.Helper()
	assert.ElementsMatch(t, keys(want), cfg.Names())
	for name, w := range want {
		p := cfg.Procs[name]
		if !assert.NotNil(t, p, name) {
			continue
		}
		assert.Equal(t, w.kind, kindOf(p), "%s: kind", name)
		assert.Equal(t, w.port, p.Port, "%s: port", name)
		assert.Equal(t, w.command, p.Command.Shell, "%s: command", name)
		if w.cwd != "" {
			assert.Equal(t, filepath.Join(cfg.Dir, w.cwd), p.Cwd, "%s: cwd", name)
		}
		assert.ElementsMatch(t, w.dependsOn, p.DependsOn, "%s: dependsOn", name)
	}
}

func keys(m map[string]wantProc) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestInitTurborepo: a pnpm/turbo workspace. `turbo dev` at the root is
// not added beside the packages it starts; a package whose dev script is
// `tsc` is a task its users wait for, `tsc --watch` a process that needs
// nothing; Prisma's migrations are a task the API waits for; compose.yaml
// is read with compose.override.yml merged (its published port, its new
// service); ports come from vite.config's server.port and the API's own
// default for PORT.
func TestInitTurborepo(t *testing.T) {
	cfg, res := generateConfig(t, copySample(t, "turborepo"))
	assertProcs(t, cfg, map[string]wantProc{
		"db":      {kind: config.KindService, port: 5433, command: "postgres -D .data/postgres -p 5433 -k /tmp"},
		"cache":   {kind: config.KindService, port: 6379, command: "redis-server --port 6379"},
		"shared":  {kind: config.KindTask, command: "pnpm dev", cwd: "packages/shared"},
		"migrate": {kind: config.KindTask, command: "pnpm exec prisma migrate deploy", cwd: "apps/api", dependsOn: config.Dependencies{ready("db")}},
		"api": {kind: config.KindService, port: 4000, command: "pnpm dev", cwd: "apps/api",
			// Prisma says postgres; nothing in apps/api names the cache.
			dependsOn: config.Dependencies{ready("db"), completed("migrate"), completed("shared")}},
		"ui":  {kind: config.KindService, command: "pnpm dev", cwd: "packages/ui"},
		"web": {kind: config.KindService, port: 3001, command: "pnpm dev", cwd: "apps/web", dependsOn: config.Dependencies{ready("api"), completed("shared")}},
	})
	assert.Contains(t, res.Skipped, `package.json script "dev": runs "turbo dev", which starts the apps below; they have processes of their own`)
}

// TestInitFastAPIWithAlembicInADevContainer: the database comes from the
// dev container's compose file (its own service is left out), Alembic's
// migrations are a task, uvicorn runs the app on .env's PORT.
func TestInitFastAPIWithAlembicInADevContainer(t *testing.T) {
	cfg, res := generateConfig(t, copySample(t, "fastapi-alembic"))
	assertProcs(t, cfg, map[string]wantProc{
		"db":      {kind: config.KindService, port: 5432, command: "postgres -D .data/postgres -p 5432 -k /tmp"},
		"migrate": {kind: config.KindTask, command: "uv run python -m alembic upgrade head", dependsOn: config.Dependencies{ready("db")}},
		"web": {kind: config.KindService, port: 8001, command: "uv run python -m uvicorn app.main:app --reload --port 8001",
			dependsOn: config.Dependencies{ready("db"), completed("migrate")}},
	})
	assert.Contains(t, res.Skipped, `.devcontainer/docker-compose.yml service "app": the dev container itself, where the project's processes run`)
}

// TestInitDjangoPortFromDotEnv: Django's runserver gets .env's PORT and
// waits for migrate.
func TestInitDjangoPortFromDotEnv(t *testing.T) {
	cfg, _ := generateConfig(t, copySample(t, "django-env"))
	assertProcs(t, cfg, map[string]wantProc{
		"migrate": {kind: config.KindTask, command: "python3 manage.py migrate"},
		"web":     {kind: config.KindService, port: 8010, command: "python3 manage.py runserver 8010", dependsOn: config.Dependencies{completed("migrate")}},
	})
}

// TestComposeFilesDockerComposeLooksFor: docker-compose.yml takes
// docker-compose.override.yml; a .devcontainer/ folder without
// devcontainer.json still has its compose file read; a devcontainer.json
// naming the project's own compose file does not add it twice.
func TestComposeFilesDockerComposeLooksFor(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"docker-compose.yml":               "services:\n  cache: {image: redis}\n",
		"docker-compose.override.yml":      "services:\n  cache: {ports: ['6390:6379']}\n",
		".devcontainer/docker-compose.yml": "services:\n  queue: {image: nats:2}\n",
	})
	cfg, _ := generateConfig(t, dir)
	assert.ElementsMatch(t, []string{"cache", "queue"}, cfg.Names())
	assert.Equal(t, 6390, cfg.Procs["cache"].Port)

	dir = t.TempDir()
	writeFiles(t, dir, map[string]string{
		"compose.yaml":                    "services:\n  db: {image: postgres}\n",
		".devcontainer/devcontainer.json": `{"dockerComposeFile": ["../compose.yaml", "extra.yml"], "service": "app"}`,
		".devcontainer/extra.yml":         "services:\n  app: {image: mcr.microsoft.com/devcontainers/base}\n  cache: {image: redis}\n",
	})
	cfg, res := generateConfig(t, dir)
	assert.ElementsMatch(t, []string{"db", "cache"}, cfg.Names())
	assert.Contains(t, res.Skipped, `.devcontainer/extra.yml service "app": the dev container itself, where the project's processes run`)
}
