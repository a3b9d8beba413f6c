// Package composetest runs a real engine on a procs.yaml text, for the tests
// of the packages built on the engine (the control plane and its clients),
// as net/http/httptest runs a real server. Nothing in it is mocked: the
// processes are real and so is their output.
package composetest

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
)

// Deadline bounds how long a stopping engine may take before the test fails.
const Deadline = 20 * time.Second

// Run is an engine running a config in a project folder.
type Run struct {
	// Dir is the project folder; procs.yaml is in it.
	Dir string
	// Engine is the running engine.
	Engine *compose.Engine

	done     chan struct{}
	stopOnce sync.Once
}

// Start writes yamlText to dir/procs.yaml and runs it until Stop or the end
// of the test. Its log files go to a folder of their own, and no watchdog
// is started: the test process itself is the one that must not leak.
func Start(t testing.TB, dir, yamlText string) *Run {
	t.Helper()
	file := filepath.Join(dir, "procs.yaml")
	if err := os.WriteFile(file, []byte(yamlText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Parse(file, []byte(yamlText), os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Dir = dir
	e, err := compose.New(cfg, compose.Options{NoWatchdog: true, LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	r := &Run{Dir: dir, Engine: e, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		_, _ = e.Run(context.Background())
	}()
	t.Cleanup(func() { r.Stop(t) })
	return r
}

// Done is closed once the engine has ended, by Stop or by itself.
func (r *Run) Done() <-chan struct{} { return r.done }

// Stop ends the engine and waits for it, failing the test if it takes
// longer than Deadline. It may be called more than once.
func (r *Run) Stop(t testing.TB) {
	r.stopOnce.Do(func() {
		_ = r.Engine.Down()
		select {
		case <-r.done:
		case <-time.After(Deadline):
			t.Errorf("engine did not stop within %v", Deadline)
		}
	})
}
