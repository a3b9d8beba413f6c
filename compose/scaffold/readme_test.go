package scaffold

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitParallel(t *testing.T) {
	tests := []struct {
		script string
		want   []parallelCommand
	}{
		{`npx concurrently -c "#93c5fd,#c4b5fd" "php artisan serve" "npm run dev" --names=server,vite --kill-others`,
			[]parallelCommand{{"server", "php artisan serve"}, {"vite", "npm run dev"}}},
		{`concurrently -n api,web "nodemon api.js" 'vite'`, []parallelCommand{{"api", "nodemon api.js"}, {"web", "vite"}}},
		{`run-p api web`, []parallelCommand{{"api", "pnpm api"}, {"web", "pnpm web"}}},
		{`npm-run-all --parallel watch serve`, []parallelCommand{{"watch", "pnpm watch"}, {"serve", "pnpm serve"}}},
		{`npm-run-all build serve`, nil}, // one after another: not parallel
		{`concurrently "npm:start:dev" "yarn:gen -w"`, []parallelCommand{{"start:dev", "npm run start:dev"}, {"gen", "yarn gen -w"}}},
		{`vite`, nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, splitParallel(tt.script, "pnpm"), tt.script)
	}
}

// TestParallelAppsKeepsOneServerWhole: a script that starts one server
// beside generators is the script its developers run, not split; one
// that starts a server and a worker is split.
func TestParallelAppsKeepsOneServerWhole(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"scripts": {
		"start:dev": "nest start --watch", "gen": "ts-node gen.ts", "worker": "node worker.js"}}`), 0o644))
	pl := &plan{dir: dir}
	assert.Nil(t, pl.parallelApps("", "package.json", "dev", `concurrently "contentlayer dev" "next dev"`, "npm"))
	assert.Nil(t, pl.parallelApps("", "package.json", "dev", `concurrently "npm:start:dev" "npm:gen"`, "npm"))
	procs := pl.parallelApps("", "package.json", "dev", `concurrently "npm:start:dev" "celery -A app worker"`, "npm")
	require.Len(t, procs, 2)
	assert.Equal(t, "npm run start:dev", procs[0].commandLine())
}

func TestParseReadme(t *testing.T) {
	text := strings.Join([]string{
		"# App", "", "## Getting started", "", "```bash", "$ pnpm install", "pnpm dev # at localhost:3000", "```", "",
		"Run it:", "", "    ./gradlew bootRun", "", "| `npm run dev` | Starts the dev server |",
		"", "## Deploy", "", "```sh", "fly deploy", "```", "", "### Set up Stripe (optional)", "```", "deno task init:stripe", "```",
	}, "\n")
	var got []string
	for _, c := range parseReadme(text) {
		got = append(got, c.command)
	}
	assert.Equal(t, []string{"pnpm install", "pnpm dev", "./gradlew bootRun", "npm run dev"}, got)
}

// An indented block of prose with commands after labels gives the
// commands, never the prose.
func TestParseReadmeLabels(t *testing.T) {
	text := "### Terminal commands\n\n    Initial installation: make install\n\n    To run application: make run\n\n" +
		"    Open the following url on your browser to view swagger documentation\n"
	var got []string
	for _, c := range parseReadme(text) {
		got = append(got, c.command)
	}
	assert.Equal(t, []string{"make install", "make run"}, got)
}

func TestReadPyTasks(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte(`
[tool.poe.tasks]
lint = "ruff check"
worker = { cmd = "celery -A app worker", help = "the worker" }
[tool.poe.tasks.beat]
cmd = "celery -A app beat"
envfile = ".env.local"
[tool.poe.tasks.all]
sequence = ["lint", "worker"]
[tool.pdm.scripts]
dev = {cmd = ["flask", "run", "--debug"]}
`), 0o644))
	got := map[string]pyTask{}
	for _, task := range readPyTasks(dir) {
		got[task.runner+" "+task.name] = task
	}
	assert.Equal(t, "celery -A app worker", got["poe worker"].command)
	assert.Equal(t, ".env.local", got["poe beat"].envFile)
	assert.Equal(t, "", got["poe all"].command, "a sequence runs only through poe")
	assert.Equal(t, "flask run --debug", got["pdm dev"].command)
}

func TestSpringServerPort(t *testing.T) {
	for _, tt := range []struct{ file, text string }{
		{"application.properties", "spring.application.name=x\nserver.port=9090\n"},
		{"application.yml", "spring:\n  name: x\nserver:\n  address: 0.0.0.0\n  port: ${PORT:9090}\n"},
	} {
		dir := t.TempDir()
		resources := filepath.Join(dir, "src", "main", "resources")
		require.NoError(t, os.MkdirAll(resources, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(resources, tt.file), []byte(tt.text), 0o644))
		port, _ := springServerPort(dir)
		assert.Equal(t, 9090, port, tt.file)
	}
}

func TestReadDenoTasks(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "deno.jsonc"), []byte(`{
  // Fresh 2
  "tasks": {
    "dev": "vite", /* the dev server */
    "start": { "command": "deno serve -A _fresh/server.js", "description": "prod" },
  },
}`), 0o644))
	file, tasks := readDenoTasks(dir)
	assert.Equal(t, "deno.jsonc", file)
	assert.Equal(t, map[string]string{"dev": "vite", "start": "deno serve -A _fresh/server.js"}, tasks)
}

// A README target init cannot see into is written commented out, with
// the question, and the file still loads.
func TestUndecidedIsCommentedOut(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("## Development\n\n```\nmake dev\n```\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"scripts": {"dev": "vite"}}`), 0o644))
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	assert.Contains(t, string(res.YAML), "init cannot see what `make dev` starts")
	assert.Contains(t, string(res.YAML), "  #   command: make dev\n")
}

// A project whose README runs only what init cannot see into still gets
// a file: that command, disabled, under its question.
func TestNothingFoundButTheReadme(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README.md"), []byte("## Running locally\n\n    cargo run --release\n"), 0o644))
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	assert.Contains(t, string(res.YAML), "    command: cargo run --release\n")
	assert.Contains(t, string(res.YAML), "    disabled: true\n")
}
