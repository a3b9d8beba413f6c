package compose_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// Example shows the engine on its own: load a config, run it, wait for a
// process to be ready, then stop everything.
func Example() {
	dir, _ := os.MkdirTemp("", "procs-example")
	defer os.RemoveAll(dir)
	yaml := []byte(`
procs:
  db:
    command: [sh, -c, 'echo "db: ready to accept connections"; exec sleep 60']
    readyPatterns: ['ready to accept connections']
  api:
    command: [sh, -c, 'echo "api: listening"; exec sleep 60']
    readyPatterns: [listening]
    dependsOn: [db]
`)
	cfg, err := config.Parse(filepath.Join(dir, "procs.yaml"), yaml, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	engine, err := compose.New(cfg, compose.Options{NoWatchdog: true, LogDir: filepath.Join(dir, "logs")})
	if err != nil {
		fmt.Println(err)
		return
	}
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_, _ = engine.Run(context.Background())
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	result, err := engine.Wait(ctx, "api", []rules.State{rules.StateReady}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(result.Name, result.State)

	_ = engine.Down()
	<-ran
	// Output: api ready
}
