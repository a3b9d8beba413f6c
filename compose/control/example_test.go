package control_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
)

// ExampleClient serves an engine on the project's socket, as procs up does,
// then talks to it as every client command does: list, restart, wait.
func ExampleClient() {
	dir, _ := os.MkdirTemp("", "procs-example")
	defer os.RemoveAll(dir)
	yaml := []byte("procs:\n  web:\n    command: [sh, -c, 'echo listening; exec sleep 60']\n    readyPatterns: [listening]\n")
	cfg, _ := config.Parse(filepath.Join(dir, "procs.yaml"), yaml, nil)
	engine, _ := compose.New(cfg, compose.Options{NoWatchdog: true, LogDir: filepath.Join(dir, "logs")})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// The server lives as long as serveCtx: procs up ends it when the engine ends.
	serveCtx, stopServing := context.WithCancel(context.Background())
	defer stopServing()
	server, err := control.Serve(serveCtx, engine, dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer server.Close()
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_, _ = engine.Run(context.Background())
	}()

	client, err := control.Dial(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()
	result, err := client.Restart(ctx, "web", control.ActionOptions{Timeout: 10 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(result.Name, result.State, "run", result.Run)
	procs, _ := client.List(ctx)
	fmt.Println(len(procs), "process:", procs[0].Name)

	_ = client.Down(ctx)
	<-ran
	// Output:
	// web ready run 2
	// 1 process: web
}
