package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeProject writes files (name → content) into a fresh folder.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	return dir
}

const layeredBase = `procs:
  api:
    command: ./api
    port: 8080
    readyTimeout: 30s
  web:
    command: ./web
    port: 3000
`

func TestLayering(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"procs.yaml":          layeredBase,
		"procs.override.yaml": "procs:\n  api:\n    port: 8081\n  web:\n    port: 3001\n",
	})
	load := func(environ []string, set ...string) *Config {
		t.Helper()
		cfg, err := Load(LoadOptions{Dir: dir, Environ: environ, Set: set})
		require.NoError(t, err)
		return cfg
	}

	cfg := load([]string{})
	assert.Equal(t, 8081, cfg.Procs["api"].Port, "override file beats file")
	assert.Equal(t, Command{Shell: "./api"}, cfg.Procs["api"].Command, "override merges, keeping other keys")

	env := []string{"PROCS_PROCS__API__PORT=9090", "PROCS_PROCS__API__READYTIMEOUT=5s", "PROCS_FILE_UNRELATED=x"}
	cfg = load(env)
	assert.Equal(t, 9090, cfg.Procs["api"].Port, "env var beats override")
	assert.Equal(t, 5*time.Second, cfg.Procs["api"].ReadyTimeout.D(), "env keys match camelCase fields case-insensitively")
	assert.Equal(t, 3001, cfg.Procs["web"].Port)

	cfg = load(env, "procs.api.port=9999", "procs.web.command=./web --dev")
	assert.Equal(t, 9999, cfg.Procs["api"].Port, "--set beats env var")
	assert.Equal(t, Command{Shell: "./web --dev"}, cfg.Procs["web"].Command)
}

// TestLoaderReadsKoanfsMergedConfig: finish reads the map koanf's first
// merge made instead of a copy of koanf's config (loader.merged), which is
// right only while koanf merges every later layer into that map in place:
// with an override file, a PROCS_ variable and --set, it is koanf's config.
func TestLoaderReadsKoanfsMergedConfig(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"procs.yaml":          layeredBase,
		"procs.override.yaml": "procs:\n  api:\n    port: 8081\n  extra:\n    command: ./extra\n",
	})
	file := filepath.Join(dir, "procs.yaml")
	ld := newLoader(file, []string{"PROCS_PROCS__WEB__PORT=9090"})
	for _, name := range []string{"procs.yaml", "procs.override.yaml"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		ld.addFile(filepath.Join(dir, name), data)
	}
	ld.addEnv()
	ld.addSet([]string{"procs.api.readyTimeout=5s"})
	require.Empty(t, ld.errs)
	require.NotNil(t, ld.merged)
	assert.Equal(t, ld.k.Raw(), ld.merged)
	procs := ld.merged["procs"].(map[string]any)
	assert.Equal(t, 8081, procs["api"].(map[string]any)["port"], "the override file")
	assert.Contains(t, procs, "extra", "a process the override file adds")
	assert.Equal(t, "9090", procs["web"].(map[string]any)["port"], "the PROCS_ variable")
	assert.Equal(t, "5s", procs["api"].(map[string]any)["readyTimeout"], "--set")
}

func TestLayerErrorsNameTheirSource(t *testing.T) {
	dir := writeProject(t, map[string]string{"procs.yaml": layeredBase})
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{"PROCS_PROCS__API__PORT=x", "PROCS_PROCS__WEB__READYPATERN=y"},
		Set: []string{"procs.web.readyTimeout=soon", "nonsense"}})
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 1, "a malformed --set stops before the values are checked")
	assert.Equal(t, `--set: "nonsense" must look like key.path=value, e.g. procs.api.port=9090`, errs[0].Error())

	_, err = Load(LoadOptions{Dir: dir, Environ: []string{"PROCS_PROCS__API__PORT=x", "PROCS_PROCS__WEB__READYPATERN=y"},
		Set: []string{"procs.web.readyTimeout=soon"}})
	require.True(t, errors.As(err, &errs), "%v", err)
	assert.Equal(t, ConfigErrors{
		{File: "--set", Path: "procs.web.readyTimeout", Msg: `"soon" is not a duration (e.g. 30s)`},
		{File: "PROCS_PROCS__API__PORT", Path: "procs.api.port", Msg: `"x" is not a port`},
		{File: "PROCS_PROCS__WEB__READYPATERN", Path: "procs.web.READYPATERN", Msg: `unknown key "READYPATERN" (did you mean "readyPatterns"?)`},
	}, errs)
	assert.Equal(t, `PROCS_PROCS__API__PORT: procs.api.port: "x" is not a port`, errs[1].Error())
}

// A variable or flag that misspells a process name makes a process of its
// own, with no command: the error names the variable or flag, not a line
// of procs.yaml that is not at fault, and the process meant.
func TestOverrideOfAMisspelledProcessSaysSo(t *testing.T) {
	dir := writeProject(t, map[string]string{"procs.yaml": layeredBase})
	for _, tc := range []struct {
		environ, set []string
		want         string
	}{
		{set: []string{"procs.ap.port=1"},
			want: `--set: procs.ap: no process "ap" (did you mean "api"?): --set adds a process only with its command`},
		{environ: []string{"PROCS_PROCS__AP__PORT=9090"},
			want: `PROCS_PROCS__AP__PORT: procs.AP: no process "AP" (did you mean "api"?): PROCS_PROCS__AP__PORT adds a process only with its command`},
	} {
		_, err := Load(LoadOptions{Dir: dir, Environ: append([]string{}, tc.environ...), Set: tc.set})
		var errs ConfigErrors
		require.True(t, errors.As(err, &errs), "%v", err)
		require.Len(t, errs, 1)
		assert.Equal(t, tc.want, errs[0].Error())
	}
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{}, Set: []string{"procs.extra.command=./extra"}})
	require.NoError(t, err, "a flag may still add a whole process")
	assert.Equal(t, "./extra", cfg.Procs["extra"].Command.Shell)
}

func TestOverrideErrorsPointIntoOverride(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"procs.yaml":          layeredBase,
		"procs.override.yaml": "procs:\n  api:\n    port: lots\n",
	})
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 1)
	assert.Equal(t, filepath.Join(dir, "procs.override.yaml"), errs[0].File)
	assert.Equal(t, [2]int{3, 11}, [2]int{errs[0].Line, errs[0].Col})
}

func TestExpansion(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"procs.yaml": `envFile: global.env
procs:
  api:
    envFile: api.env
    command: ./api --name ${NAME:-anonymous} --mode ${MODE} --level ${LEVEL} --cost $$5
    port: ${PORT:-8080}
    env:
      FROM_SHELL: ${SHELL_ONLY}
`,
		"global.env": "MODE=global\nLEVEL=global\n",
		"api.env":    "LEVEL=own\n",
	})
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{"SHELL_ONLY=yes", "PORT=9000"}})
	require.NoError(t, err)
	api := cfg.Procs["api"]
	assert.Equal(t, "./api --name anonymous --mode global --level own --cost $5", api.Command.Shell)
	assert.Equal(t, 9000, api.Port)
	assert.Equal(t, map[string]string{"FROM_SHELL": "yes"}, api.Env)
	assert.Equal(t, filepath.Join(dir, "api.env"), api.EnvFile)
}

// TestPortVariableIsTheProcessPort: in a process with a port, ${PORT} is
// the port the process gets in PORT, not procs' own PORT (a shell's
// PORT=3000) or nothing. In a shell command it is left to the shell, which
// has each run's PORT, so the instances of a replicated or scaled process
// each get their own.
func TestPortVariableIsTheProcessPort(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"procs.yaml": `procs:
  web:
    command: python3 -m http.server ${PORT} --bind 127.0.0.1
    port: 8765
    env:
      SELF: "http://localhost:${PORT}/"
      LITERAL: "$${HOME}"
    healthcheck: {http: "http://localhost:${PORT:-1}/health"}
  api:
    command: [./api, --port, "${PORT}"]
    port: ${API_PORT:-9100}
  worker:
    command: ./worker --port ${PORT}
    port: 9000
    replicas: 2
  plain:
    command: echo ${PORT:-none}
`,
	})
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{"PORT=3000"}})
	require.NoError(t, err)
	web := cfg.Procs["web"]
	assert.Equal(t, "python3 -m http.server ${PORT} --bind 127.0.0.1", web.Command.Shell, "left to the shell, which has PORT=8765")
	assert.Equal(t, map[string]string{"SELF": "http://localhost:8765/", "LITERAL": "${HOME}"}, web.Env,
		"env: is expanded once: $$ stays a literal $")
	assert.Equal(t, "http://localhost:8765/health", web.Healthcheck.HTTP)
	assert.Equal(t, []string{"./api", "--port", "9100"}, cfg.Procs["api"].Command.Argv, "no shell: the port itself")
	assert.Equal(t, "./worker --port ${PORT}", cfg.Procs["worker-2"].Command.Shell)
	assert.Equal(t, 9001, cfg.Procs["worker-2"].Port)
	assert.Equal(t, "echo 3000", cfg.Procs["plain"].Command.Shell, "without port:, PORT comes from where any variable does")
	assert.Empty(t, cfg.Warnings, "PORT is set")
}

func TestFindConfig(t *testing.T) {
	empty := t.TempDir()
	_, err := Load(LoadOptions{Dir: empty, Environ: []string{}})
	assert.ErrorIs(t, err, ErrNoConfig)

	_, err = Load(LoadOptions{File: filepath.Join(empty, "nope.yaml"), Environ: []string{}})
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.NotErrorIs(t, err, ErrNoConfig)

	dir := writeProject(t, map[string]string{"dev.yaml": "procs:\n  a:\n    command: x\n", "dev.override.yaml": "procs:\n  a:\n    port: 1234\n"})
	cfg, err := Load(LoadOptions{Dir: empty, Environ: []string{"PROCS_FILE=" + filepath.Join(dir, "dev.yaml")}})
	require.NoError(t, err)
	assert.Equal(t, 1234, cfg.Procs["a"].Port, "the override is named after the file")
}

func TestSetMatchesDottedNames(t *testing.T) {
	dir := writeProject(t, map[string]string{"procs.yaml": "procs:\n  web.v2:\n    command: x\n"})
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{}, Set: []string{"procs.web.v2.port=4000"}})
	require.NoError(t, err)
	assert.Equal(t, 4000, cfg.Procs["web.v2"].Port)
}

// TestDotEnvSyntaxErrorsNameTheirLine: a dotenv file that does not parse
// is reported at its own line, saying what is wrong there, not at the
// procs.yaml key that names it with the parser's words.
func TestDotEnvSyntaxErrorsNameTheirLine(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"procs.yaml": "procs:\n  a:\n    command: echo\n    envFile: own.env\n",
		".env":       "A=1\n# B=\"in a comment\n\nB=\"unterminated\r\nC=3\n",
		"own.env":    "X=1\nexport Y=2\n  this is bad\nZ=3\n",
	})
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 2, "%v", err)
	got := []string{errs[0].Error(), errs[1].Error()}
	slices.Sort(got)
	assert.Equal(t, []string{
		filepath.Join(dir, ".env") + `:4:1: not in dotenv format (KEY=value lines): the value of B opens a quote (") that is never closed`,
		filepath.Join(dir, "own.env") + `:3:3: procs.a.envFile: not in dotenv format (KEY=value lines): "this is bad" is not KEY=value`,
	}, got)
}

// A line with no variable name (=2) is refused at its line: godotenv
// takes it, as a variable no environment can hold.
func TestDotEnvLineWithoutAName(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"procs.yaml": "procs:\n  a:\n    command: echo\n    envFile: own.env\n",
		"own.env":    "X=1\n=2\n",
	})
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "%v", err)
	require.Len(t, errs, 1)
	assert.Equal(t, filepath.Join(dir, "own.env")+`:2:1: procs.a.envFile: not in dotenv format (KEY=value lines): "=2" has no variable name before its =`, errs[0].Error())
}

// Notepad, PowerShell's Out-File and some editors begin a UTF-8 file with a
// byte order mark. procs.yaml with one reported every error at 1:1, and a
// .env with one was refused ("\ufeffFOO=bar" is not KEY=value); a Procfile
// with one already worked. The mark is no part of the text.
func TestFilesWithAByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	dir := writeProject(t, map[string]string{
		"procs.yaml":          bom + "procs:\r\n  a:\r\n    command: sleep 10\r\n    port: 808O\r\n",
		"procs.override.yaml": bom + "procs:\n  a:\n    prot: 80\n",
	})
	_, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	var errs ConfigErrors
	require.True(t, errors.As(err, &errs), "%v", err)
	got := make([]string, len(errs))
	for i, e := range errs {
		got[i] = strings.TrimPrefix(e.Error(), dir+string(filepath.Separator))
	}
	assert.ElementsMatch(t, []string{
		`procs.yaml:4:11: procs.a.port: expected a number, got string "808O"`,
		`procs.override.yaml:3:5: procs.a.prot: unknown key "prot" (did you mean "port"?)`,
	}, got)

	dir = writeProject(t, map[string]string{
		"procs.yaml": bom + "procs:\r\n  a:\r\n    command: sleep 10\r\n    port: 808O\r\n",
	})
	_, err = Load(LoadOptions{Dir: dir, Environ: []string{}})
	require.Error(t, err)
	assert.Equal(t, filepath.Join(dir, "procs.yaml")+`:4:11: procs.a.port: expected a number, got string "808O"`, err.Error())

	dir = writeProject(t, map[string]string{
		"procs.yaml": "procs:\n  a:\n    command: echo\n    envFile: own.env\n",
		".env":       bom + "FOO=bar\r\n",
		"own.env":    bom + "OWN=1\n",
	})
	cfg, err := Load(LoadOptions{Dir: dir, Environ: []string{}})
	require.NoError(t, err)
	env, err := cfg.Environment(cfg.Procs["a"])
	require.NoError(t, err)
	assert.Equal(t, "bar", env["FOO"])
	assert.Equal(t, "1", env["OWN"])

	dir = writeProject(t, map[string]string{
		"procs.yaml": "procs:\n  a:\n    command: echo\n    port: ${WEB_PORT}\n",
		".env":       bom + "WEB_PORT=81a1\n",
	})
	_, err = Load(LoadOptions{Dir: dir, Environ: []string{}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `(${WEB_PORT} is set to "81a1" at .env:1)`, "the line that sets it")
}
