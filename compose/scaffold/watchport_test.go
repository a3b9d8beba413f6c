package scaffold

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
)

// A Go module's go run has no reloader: init adds a watch of its Go files
// and go.mod, relative to procs.yaml, wherever the module is.
func TestGoAppsAreWatched(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"api/go.mod":  "module example.com/api\n\ngo 1.22\n",
		"api/main.go": "package main\n\nfunc main() {}\n",
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err, "%s", res.YAML)
	api := cfg.Procs["api"]
	require.NotNil(t, api.Watch, "%s", res.YAML)
	assert.Equal(t, []string{"api/**/*.go", "api/go.mod"}, api.Watch.Paths)
	assert.Equal(t, []string{"**/*.go", "go.mod"}, goWatch(""), "a module at the root")
}

// foreman gives Procfile lines PORT from the base in .env (then +100 per
// line), as it does without one from 5000: init writes those ports.
func TestProcfilePortsFromDotEnv(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Procfile": "web: python3 -m http.server $PORT\nclock: ./clock\napi: ./api --port $PORT\n",
		".env":     "PORT=3000\nRAILS_ENV=development\n",
	})
	res, err := Generate(Options{Dir: dir})
	require.NoError(t, err)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), res.YAML, []string{})
	require.NoError(t, err, "%s", res.YAML)
	assert.Equal(t, 3000, cfg.Procs["web"].Port, "%s", res.YAML)
	assert.Equal(t, 3200, cfg.Procs["api"].Port, "the third line, as foreman counts")
	assert.Zero(t, cfg.Procs["clock"].Port)
	assert.Contains(t, string(res.YAML), "port: 3000  # foreman's PORT for this line, from PORT in .env")
}

func TestProcfilePort(t *testing.T) {
	assert.Equal(t, 5100, procfilePort(5100, 0), "no .env PORT: foreman's default base")
	assert.Equal(t, 8100, procfilePort(5100, 8000))
	assert.Equal(t, 5100, procfilePort(5100, 65500), "past 65535: the default base")
}
