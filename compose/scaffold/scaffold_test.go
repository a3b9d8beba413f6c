package scaffold

import (
	"flag"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/schema"
	"github.com/procsdev/procs/schema/schematest"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files")

// TestGenerateGolden runs init on each sample project of testdata, copied
// to a fresh folder, and compares the procs.yaml with testdata/NAME.golden
// (`go test ./compose/scaffold -update` rewrites them). Each generated file
// must load with config.Load, as procs check does, and match the schema.
func TestGenerateGolden(t *testing.T) {
	validator := schematest.Compile(t, filepath.Join("..", "..", "schema", "procs.schema.json"))
	for _, tc := range []struct {
		golden, sample string
		opts           Options
		procs          []string
	}{
		{golden: "node", sample: "node", procs: []string{"api", "web"}},
		{golden: "django", sample: "django", procs: []string{"migrate", "web"}},
		{golden: "rails", sample: "rails", procs: []string{"web"}},
		{golden: "go", sample: "go", procs: []string{"web"}},
		{golden: "compose", sample: "compose", procs: []string{"cache", "db", "web"}},
		{golden: "fullstack", sample: "fullstack", procs: []string{"backend", "frontend", "migrate", "postgres"}},
		{golden: "procfile", sample: "procfile", procs: []string{"assets", "redis", "web", "worker"}},
		{golden: "hugo", sample: "hugo", procs: []string{"web"}},
		{golden: "phoenix", sample: "phoenix", procs: []string{"migrate", "web"}},
		{golden: "laravel", sample: "laravel", procs: []string{"web"}},
		{golden: "fastapi", sample: "fastapi", procs: []string{"web"}},
		{golden: "flask", sample: "flask", procs: []string{"web"}},
		{golden: "turborepo", sample: "turborepo", procs: []string{"api", "cache", "db", "migrate", "shared", "ui", "web"}},
		{golden: "fastapi-alembic", sample: "fastapi-alembic", procs: []string{"db", "migrate", "web"}},
		{golden: "django-env", sample: "django-env", procs: []string{"migrate", "web"}},
		{golden: "procfile-from-procfile", sample: "procfile", opts: Options{FromProcfile: true}, procs: []string{"assets", "web", "worker"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			dir := copySample(t, tc.sample)
			opts := tc.opts
			opts.Dir = dir
			res, err := Generate(opts)
			require.NoError(t, err)
			golden := filepath.Join("testdata", tc.golden+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, res.YAML, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(res.YAML))

			require.NoError(t, os.WriteFile(filepath.Join(dir, "procs.yaml"), res.YAML, 0o644))
			cfg, err := config.Load(config.LoadOptions{Dir: dir, Environ: []string{}})
			require.NoError(t, err, "the generated procs.yaml passes procs check")
			assert.Equal(t, filepath.Join(dir, "procs.yaml"), cfg.File)
			assert.Equal(t, tc.procs, cfg.Names())
			assert.NoError(t, validator.Validate(schematest.YAMLAsJSON(t, res.YAML)), "the generated procs.yaml matches the schema")

			names := make([]string, len(res.Procs))
			for i, s := range res.Procs {
				names[i] = s.Name
				assert.Equal(t, cfg.Procs[s.Name].Command.Shell, s.Command, "the summary shows the command written")
				assert.NotEmpty(t, s.Why)
			}
			assert.ElementsMatch(t, tc.procs, names)
		})
	}
}

// TestInitReadsRealStacks: the stacks whose READMEs tell a developer to run
// hugo server, mix phx.server, php artisan serve, uvicorn or flask run get
// that command, on the port the stack uses by default.
func TestInitReadsRealStacks(t *testing.T) {
	for _, tc := range []struct {
		sample, command, framework string
		port                       int
	}{
		{"hugo", "hugo server --port 1313", "hugo", 1313},
		{"phoenix", "mix phx.server", "phoenix", 4000},
		{"laravel", "php artisan serve --port=8000", "laravel", 8000},
		{"fastapi", "python3 -m fastapi dev main.py --port 8000", "uvicorn", 8000},
		{"flask", "python3 -m flask --app app run --port 5000", "flask", 5000},
	} {
		t.Run(tc.sample, func(t *testing.T) {
			dir := copySample(t, tc.sample)
			res, err := Generate(Options{Dir: dir})
			require.NoError(t, err)
			cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
			require.NoError(t, err)
			web := cfg.Procs["web"]
			require.NotNil(t, web, string(res.YAML))
			assert.Equal(t, tc.command, web.Command.Shell)
			assert.Equal(t, tc.port, web.Port)
			assert.Equal(t, config.KindService, kindOf(web))
			assert.Contains(t, string(res.YAML), "detected: "+tc.framework)
		})
	}
}

func kindOf(p *config.Proc) config.Kind {
	if p.Kind == "" {
		return config.KindService
	}
	return p.Kind
}

func TestDependencyChain(t *testing.T) {
	dir := copySample(t, "fullstack")
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err)
	assert.Equal(t, config.Dependencies{{Name: "backend", Condition: config.ConditionReady}}, cfg.Procs["frontend"].DependsOn,
		"the front end waits for the API")
	assert.Equal(t, config.Dependencies{{Name: "migrate", Condition: config.ConditionCompleted}, {Name: "postgres", Condition: config.ConditionReady}},
		cfg.Procs["backend"].DependsOn, "the API waits for the database and for its migrations")
	assert.Equal(t, config.KindTask, cfg.Procs["migrate"].Kind, "Django's migrate is a task")
	assert.Equal(t, config.Dependencies{{Name: "postgres", Condition: config.ConditionReady}}, cfg.Procs["migrate"].DependsOn,
		"the migration waits for the database")
	assert.Empty(t, cfg.Procs["postgres"].DependsOn)
	assert.Equal(t, 3000, cfg.Procs["frontend"].Port, "a port the dev script sets is kept")
	assert.Equal(t, "pnpm dev", cfg.Procs["frontend"].Command.Shell, "pnpm-lock.yaml names the package manager")
}

// TestStorybookScript: "storybook": "storybook dev -p 6006", as storybook
// init writes it, is a process of its own beside the app's dev server,
// which does not serve it, and the only one of a component library.
func TestStorybookScript(t *testing.T) {
	app := t.TempDir()
	writeFiles(t, app, map[string]string{"package.json": `{"scripts": {"dev": "vite", "storybook": "storybook dev -p 6006", "build-storybook": "storybook build"},
		"devDependencies": {"vite": "6", "storybook": "8.6", "@storybook/react-vite": "8.6"}}`})
	res, err := Generate(Options{Dir: app})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(app, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err)
	require.Len(t, cfg.Procs, 2, string(res.YAML))
	assert.Equal(t, "npm run dev", cfg.Procs["web"].Command.Shell)
	assert.Equal(t, "npm run storybook", cfg.Procs["storybook"].Command.Shell)
	assert.Equal(t, 6006, cfg.Procs["storybook"].Port)
	assert.Contains(t, string(res.YAML), "detected: storybook")

	library := t.TempDir()
	writeFiles(t, library, map[string]string{"package.json": `{"scripts": {"storybook": "storybook dev -p 6006"}, "devDependencies": {"storybook": "8.6"}}`})
	res, err = Generate(Options{Dir: library})
	require.NoError(t, err, "a component library has Storybook to run")
	cfg, err = config.Parse(filepath.Join(library, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err)
	assert.Equal(t, []string{"storybook"}, slices.Sorted(maps.Keys(cfg.Procs)))
}

// TestANodeProgramsScript: a script running an npm package's command no
// preset names (hardhat node) is run as a node program, and gets no port:
// the node preset's 3000 is a guess for a server file, and procs would
// wait for a port the program never opens (hardhat's is 8545).
func TestANodeProgramsScript(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"package.json":              `{"scripts": {"start": "hardhat node"}, "devDependencies": {"hardhat": "2"}}`,
		"node_modules/.bin/hardhat": "#!/usr/bin/env node\nrequire('../hardhat/internal/cli/bootstrap.js')\n",
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err)
	require.Len(t, cfg.Procs, 1, string(res.YAML))
	assert.Equal(t, "npm start", cfg.Procs["web"].Command.Shell)
	assert.Zero(t, cfg.Procs["web"].Port, string(res.YAML))
	assert.Equal(t, `a node program (express's preset), from package.json script "start"`, res.Procs[0].Why)
}

func TestPortClashes(t *testing.T) {
	dir := t.TempDir()
	vite := `{"scripts": {"dev": "vite"}, "devDependencies": {"vite": "6"}}`
	next := `{"scripts": {"dev": "next dev"}, "dependencies": {"next": "15"}}`
	pinned := `{"scripts": {"dev": "vite --port 5173"}, "devDependencies": {"vite": "6"}}`
	writeFiles(t, dir, map[string]string{
		"admin/package.json":   vite,
		"shop/package.json":    vite,
		"site/package.json":    next,
		"blog/package.json":    next,
		"pinned/package.json":  pinned,
		"docker-compose.yml":   "services:\n  web:\n    image: nginx:1.27\n",
		"yarn.lock":            "",
		"pnpm-workspace.yaml":  "packages: ['nothing/*']\n",
		"node_modules/x/x.txt": "",
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err, "%s", res.YAML)
	assert.Equal(t, []string{"admin", "blog", "pinned", "shop", "site", "web"}, cfg.Names())
	assert.Equal(t, 8080, cfg.Procs["web"].Port, "nginx's 80 needs root: 8080")
	assert.Equal(t, 5173, cfg.Procs["pinned"].Port, "a port written in a script is given first")
	assert.Equal(t, 5174, cfg.Procs["admin"].Port)
	assert.Equal(t, "yarn dev --port 5174", cfg.Procs["admin"].Command.Shell, "vite takes a moved port by its flag")
	assert.Equal(t, 5175, cfg.Procs["shop"].Port)
	assert.Equal(t, 3000, cfg.Procs["blog"].Port)
	assert.Equal(t, 3001, cfg.Procs["site"].Port)
	assert.Equal(t, "yarn dev", cfg.Procs["site"].Command.Shell, "next dev reads PORT, which procs sets")
	assert.Contains(t, string(res.YAML), "port: 5174  # 5173 (vite's default) is taken by pinned")
}

func TestNamesNeverClash(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"docker-compose.yml": "services:\n  web: {image: nginx}\n  api: {image: redis}\n",
		"go.mod":             "module x\n",
		"main.go":            "package main\nfunc main() {}\n",
		"api/package.json":   `{"scripts": {"dev": "vite"}, "devDependencies": {"vite": "6"}}`,
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	names := map[string]string{}
	for _, s := range res.Procs {
		names[s.Name] = s.Command
	}
	assert.Equal(t, map[string]string{
		"web":      `nginx -p "$PWD" -c nginx.conf -g "daemon off;"`,
		"api":      "redis-server --port 6379",
		"go":       "go run .",
		"api-vite": "npm run dev",
	}, names, "a taken name falls back to the preset's")
}

func TestGenerateErrors(t *testing.T) {
	_, err := Generate(Options{Dir: t.TempDir()})
	assert.ErrorIs(t, err, ErrNothingFound)

	dir := copySample(t, "go")
	_, err = Generate(Options{Dir: dir, FromProcfile: true})
	assert.ErrorIs(t, err, ErrNoProcfile)

	writeFiles(t, dir, map[string]string{"Procfile": "web: go run .\nweb: go run ./other\n"})
	_, err = Generate(Options{Dir: dir})
	var errs config.ConfigErrors
	require.ErrorAs(t, err, &errs, "a broken Procfile is reported as config errors")
	assert.Equal(t, 2, errs[0].Line)

	dir = t.TempDir()
	writeFiles(t, dir, map[string]string{"go.mod": "module x\n", "lib.go": "package x\n"})
	_, err = Generate(Options{Dir: dir})
	assert.ErrorIs(t, err, ErrNothingFound, "a Go library has nothing to run")
}

func TestGoCommands(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":             "module x\n",
		"lib.go":             "package x\n",
		"cmd/api/main.go":    "package main\nfunc main() {}\n",
		"cmd/worker/main.go": "package main\nfunc main() {}\n",
		"cmd/shared/x.go":    "package shared\n",
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	require.Len(t, res.Procs, 1)
	assert.Equal(t, "go run ./cmd/api", res.Procs[0].Command)
	assert.Equal(t, []string{"go.mod: also has worker; add them if they serve"}, res.Skipped)
}

func TestPython(t *testing.T) {
	for _, tc := range []struct {
		files []string
		want  string
	}{
		{[]string{"manage.py", "uv.lock"}, "uv run python manage.py runserver 8000"},
		{[]string{"manage.py", "poetry.lock"}, "poetry run python manage.py runserver 8000"},
		{[]string{"manage.py", ".venv/bin/python"}, ".venv/bin/python manage.py runserver 8000"},
		{[]string{"api/manage.py", "venv/bin/python"}, "../venv/bin/python manage.py runserver 8000"},
		{[]string{"manage.py"}, "python3 manage.py runserver 8000"},
	} {
		dir := t.TempDir()
		files := map[string]string{}
		for _, f := range tc.files {
			files[f] = ""
		}
		writeFiles(t, dir, files)
		res, err := Generate(Options{Dir: dir})
		require.NoError(t, err)
		require.Len(t, res.Procs, 2, "migrate and web")
		assert.Equal(t, tc.want, res.Procs[1].Command, "%v", tc.files)
		assert.Equal(t, strings.Replace(tc.want, "runserver 8000", "migrate", 1), res.Procs[0].Command, "the migration runs with the same Python")
	}
}

func TestPortMappings(t *testing.T) {
	for _, tc := range []struct {
		entry      any
		host, cont int
		ok         bool
	}{
		{"5433:5432", 5433, 5432, true},
		{"127.0.0.1:5433:5432/tcp", 5433, 5432, true},
		{"[::1]:5433:5432", 5433, 5432, true},
		{"5432", 0, 5432, true},
		{uint64(6379), 0, 6379, true},
		{"${DB_PORT:-5434}:5432", 5434, 5432, true},
		{"${DB_PORT}:5432", 0, 5432, true},
		{"8000-8010:8000-8010", 8000, 8000, true},
		{"53:53/udp", 0, 0, false},
		{map[string]any{"target": uint64(5432), "published": "5435"}, 5435, 5432, true},
		{map[string]any{"target": uint64(53), "protocol": "udp"}, 0, 0, false},
		{"nonsense", 0, 0, false},
	} {
		m, ok := parsePortMapping(tc.entry)
		assert.Equal(t, tc.ok, ok, "%v", tc.entry)
		assert.Equal(t, [2]int{tc.host, tc.cont}, [2]int{m.host, m.container}, "%v", tc.entry)
	}
	port, published, note := publishedPort([]any{"9000:9000", "9001:9001"}, 9001, "compose.yaml")
	assert.Equal(t, 9001, port, "the mapping of the image's own port wins")
	assert.True(t, published)
	assert.Equal(t, "published by compose.yaml as 9001:9001", note)
}

func TestImageNames(t *testing.T) {
	for image, want := range map[string]string{
		"postgres":                             "postgres",
		"postgres:16-alpine":                   "postgres",
		"docker.io/library/redis:7":            "redis",
		"localhost:5000/team/mysql:8":          "mysql",
		"bitnami/minio@sha256:abc":             "minio",
		"ghcr.io/org/Valkey:latest@sha256:abc": "valkey",
	} {
		assert.Equal(t, want, imageName(image), image)
	}
	for _, t2 := range serviceTemplates() {
		_, ok := templateFor(t2.Images[0] + ":latest")
		assert.True(t, ok, t2.Preset)
	}
}

func TestYAMLString(t *testing.T) {
	for _, s := range []string{"npm run dev", "go run .", "yes", "5432", "0x1F", "-x", "a: b", "a #b", "it's",
		`mysqld --datadir="$PWD/.data/mysql"`, "tab\there", "line\nbreak", ".inf", "~", "$PORT", "@x", "web.v2", ""} {
		var got any
		require.NoError(t, yaml.Unmarshal([]byte("key: "+yamlString(s)+"\n"), &got), "%q as %s", s, yamlString(s))
		assert.Equal(t, map[string]any{"key": s}, got, "%q as %s", s, yamlString(s))
	}
	assert.Equal(t, "npm run dev", yamlString("npm run dev"), "plain when it can be")
}

func TestSchemaRef(t *testing.T) {
	assert.Equal(t, schema.ID, schemaRef(t.TempDir()), "outside this repository: the published schema")
	wd, err := os.Getwd()
	require.NoError(t, err)
	assert.Equal(t, "../../../../../schema/procs.schema.json", schemaRef(filepath.Join(wd, "testdata", "node", "web")))
	assert.Equal(t, "./schema/procs.schema.json", schemaRef(filepath.Join(wd, "..", "..")))
}

// copySample copies testdata/NAME into a fresh folder.
func copySample(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		writeFiles(t, dst, map[string]string{filepath.ToSlash(rel): string(data)})
		return nil
	})
	require.NoError(t, err)
	return dst
}

// writeFiles writes files (slash path → content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	}
}

// TestProcfileDevAndRelease: Procfile.dev (Rails 7's bin/dev) wins over the
// production Procfile, and a release: line is a task the others wait for.
func TestProcfileDevAndRelease(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Procfile":     "web: bundle exec puma -C config/puma.rb\n",
		"Procfile.dev": "web: bin/rails server -p 3000\ncss: bin/rails tailwindcss:watch\n",
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err)
	assert.Equal(t, []string{"css", "web"}, cfg.Names())
	assert.Equal(t, "bin/rails server -p 3000", cfg.Procs["web"].Command.Shell)
	assert.Contains(t, string(res.YAML), "from Procfile.dev line 1")

	dir = t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Procfile": "release: python manage.py migrate\nweb: gunicorn app:app\nworker: celery -A app worker\n",
	})
	res, err = Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err = config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err)
	assert.Equal(t, config.KindTask, cfg.Procs["release"].Kind)
	// Heroku releases before the web starts; the worker does not wait for it.
	assert.Contains(t, cfg.Procs["web"].DependsOn, config.Dependency{Name: "release", Condition: config.ConditionCompleted})
	assert.NotContains(t, cfg.Procs["worker"].DependsOn, config.Dependency{Name: "release", Condition: config.ConditionCompleted})
}

// TestProcfilePortFlags: a Procfile line that names its port with -b or -p
// gets that port.
func TestProcfilePortFlags(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Procfile": "web: gunicorn app:app -b 0.0.0.0:8001\napi: bundle exec puma -p 3001\nworker: celery -A app worker\n",
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err)
	assert.Equal(t, 8001, cfg.Procs["web"].Port)
	assert.Equal(t, 3001, cfg.Procs["api"].Port)
	assert.Equal(t, 0, cfg.Procs["worker"].Port)
}

// TestGoMainOutsideTheRoot: a module whose main package is app/ runs it.
func TestGoMainOutsideTheRoot(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":      "module example.com/shop\n\ngo 1.22\n",
		"app/main.go": "package main\n\nfunc main() {}\n",
		"store/db.go": "package store\n",
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	require.Len(t, res.Procs, 1)
	assert.Equal(t, "go run ./app", res.Procs[0].Command)
}
