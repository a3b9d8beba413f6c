package compose

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		glob, name string
		want       bool
	}{
		{"**/*.go", "main.go", true},
		{"**/*.go", "cmd/api/main.go", true},
		{"**/*.go", "cmd/api/main.py", false},
		{"src/**", "src/a/b.txt", true},
		{"src/**", "lib/a.txt", false},
		{"*.go", "cmd/main.go", false},
		{"cmd/*/main.go", "cmd/api/main.go", true},
		{"main.go", "main.go", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, matchGlob(tt.glob, tt.name), "%s ~ %s", tt.glob, tt.name)
	}
}

// TestWatchRestartsOnAChangeAndIgnoresTheRest: editing a watched file
// restarts the process once (a new run, ready), and files in ignored
// folders or not matching the globs do not.
func TestWatchRestartsOnAChangeAndIgnoresTheRest(t *testing.T) {
	cfg := `
procs:
  api:
    command: "echo up; sleep 60"
    readyPatterns: [up]
    watch: {paths: ["src/**/*.go"], ignore: ["src/gen"], debounce: 50ms}
`
	te := startEngineIn(t, []string{"src/pkg", "src/gen", "node_modules/x"}, cfg, Options{NoWatchdog: true})
	te.waitTargets([]WaitTarget{{Name: "api", Run: 1, Targets: []rules.State{rules.StateReady}}})
	require.NoError(t, os.WriteFile(filepath.Join(te.dir, "src/pkg/main.go"), []byte("package main"), 0o644))
	// Files that do not count, written last: were one to count, the result
	// would name it as the change.
	for _, f := range []string{"src/gen/x.go", "node_modules/x/y.go", "src/pkg/notes.txt"} {
		require.NoError(t, os.WriteFile(filepath.Join(te.dir, f), []byte("x"), 0o644))
	}
	ev := te.waitFor("the watch restart result", func(ev Event) bool {
		return ev.Type == EventInfo && ev.Proc == "api" && strings.HasPrefix(ev.Message, "restarted after")
	})
	assert.Contains(t, ev.Message, "src/pkg/main.go changed: api ready (run 2)")
	assert.Equal(t, 2, te.runsOf()["api"], "one restart for the burst, none for the ignored files")
}

// startEngineIn is startEngine in a project that has folders dirs before
// the engine starts.
func startEngineIn(t *testing.T, dirs []string, yamlText string, opts Options) *testEngine {
	t.Helper()
	dir := t.TempDir()
	for _, d := range dirs {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	file := filepath.Join(dir, "procs.yaml")
	require.NoError(t, os.WriteFile(file, []byte(yamlText), 0o644))
	cfg, err := config.Load(config.LoadOptions{File: file, Environ: os.Environ()})
	require.NoError(t, err)
	opts.LogDir = filepath.Join(dir, ".procs", "logs")
	e, err := New(cfg, opts)
	require.NoError(t, err)
	te := &testEngine{Engine: e, sub: e.Bus().Subscribe(false), done: make(chan Outcome, 1), dir: dir, t: t, limit: waitLimit}
	ctx, cancel := context.WithCancel(context.Background())
	te.cancel = cancel
	go func() {
		out, err := e.Run(ctx)
		assert.NoError(t, err)
		te.done <- out
	}()
	t.Cleanup(func() {
		cancel()
		<-te.done
	})
	return te
}

// TestReloadThatAddsAWatchStartsIt: the loop looks for watches to start
// only when the config has one (Engine.watchesFiles); a reload that adds
// watch: to a running process must make it look, and the watch restart it.
func TestReloadThatAddsAWatchStartsIt(t *testing.T) {
	te := startEngineIn(t, []string{"src"}, `
procs:
  api:
    command: "echo up; sleep 60"
    readyPatterns: [up]
`, Options{NoWatchdog: true})
	te.waitTargets([]WaitTarget{{Name: "api", Run: 1, Targets: []rules.State{rules.StateReady}}})
	_, err := te.Apply(te.reload(`
procs:
  api:
    command: "echo up; sleep 60"
    readyPatterns: [up]
    watch: {paths: ["src/*.go"], debounce: 50ms}
`), nil)
	require.NoError(t, err)
	// The edited definition restarts api once; the watch then restarts it
	// again on a change.
	te.waitTargets([]WaitTarget{{Name: "api", Run: 2, Targets: []rules.State{rules.StateReady}}})
	require.NoError(t, os.WriteFile(filepath.Join(te.dir, "src/main.go"), []byte("package main"), 0o644))
	ev := te.waitFor("the watch restart result", func(ev Event) bool {
		return ev.Type == EventInfo && ev.Proc == "api" && strings.HasPrefix(ev.Message, "restarted after")
	})
	assert.Contains(t, ev.Message, "src/main.go changed: api ready (run 3)")
}
