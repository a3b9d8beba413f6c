package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// upDetached runs `procs up` again in the background, in its own session
// with its output in .procs/logs/procs.log, and returns once its API
// answers; with --wait, once every process is ready (or completed) or one
// fails.
func (a *app) upDetached(cfg *compose.Config, names []string, opts upOptions) error {
	if c, err := control.Dial(cfg.Dir); err == nil {
		defer c.Close()
		info, _ := c.Info(context.Background())
		return withCode(exitFailure, &control.AlreadyRunningError{PID: info.PID})
	}
	ctx, cancel := signalContext()
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, opts.timeout)
	defer cancelTimeout()
	logPath := filepath.Join(cfg.Dir, ".procs", "logs", "procs.log")
	pid, err := spawnBackground(ctx, logPath, a.environ, a.workDir(), foregroundArgs(os.Args[1:]))
	if err != nil {
		return withCode(exitFailure, err)
	}
	c, err := control.Dial(cfg.Dir)
	if err != nil {
		return withCode(exitFailure, fmt.Errorf("procs started (pid %d) but does not answer: %w", pid, err))
	}
	defer c.Close()
	if !opts.wait {
		fmt.Fprintf(a.stdout, "procs running in the background (pid %d); output in %s\n", pid, relPath(logPath))
		return nil
	}
	return a.waitAllReady(ctx, c)
}

// spawnBackground starts the detached procs, running this binary with args
// (`up ...`) in dir, and waits until it listens (it writes to a pipe then)
// or dies (the pipe closes unwritten).
func spawnBackground(ctx context.Context, logPath string, environ []string, dir string, args []string) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("find the procs binary: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return 0, fmt.Errorf("create log folder: %w", err)
	}
	logFile, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", logPath, err)
	}
	defer logFile.Close()
	ready, notify, err := os.Pipe()
	if err != nil {
		return 0, fmt.Errorf("spawn procs: %w", err)
	}
	defer ready.Close()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, environ...), control.NotifyFDEnv+"=3")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.ExtraFiles = []*os.File{notify}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	notify.Close() // ours; the child holds its own copy
	if err != nil {
		return 0, fmt.Errorf("spawn procs: %w", err)
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Release()

	answered := make(chan bool, 1)
	go func() {
		line, _ := bufio.NewReader(ready).ReadString('\n')
		answered <- strings.TrimSpace(line) == "ready"
	}()
	select {
	case ok := <-answered:
		if !ok {
			return 0, fmt.Errorf("procs exited at start:\n%s", lastLines(logPath, 10))
		}
		return pid, nil
	case <-ctx.Done():
		return 0, fmt.Errorf("procs (pid %d) did not start listening in time; see %s", pid, relPath(logPath))
	}
}

// foregroundArgs are the arguments of `procs up -d ...` without the flags
// that only the detaching parent handles.
func foregroundArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			return append(append(out, untilDownFlag), args[i:]...)
		}
		name, _, hasValue := strings.Cut(arg, "=")
		switch name {
		case "-d", "--detach", "--wait":
			continue
		case "--timeout":
			if !hasValue {
				i++ // its value is the next argument
			}
			continue
		}
		out = append(out, arg)
	}
	// The background procs stays until `procs down`, showing what ended.
	return append(out, untilDownFlag)
}

// waitAllReady waits for every process procs started to be ready (or
// completed, for a task); the first failure ends the wait with exit 1.
func (a *app) waitAllReady(ctx context.Context, c *control.Client) error {
	deadline, _ := ctx.Deadline()
	failed := false
	err := c.WaitAll(ctx, time.Until(deadline), func(_ int, res rules.Result) bool {
		a.printResult(res)
		failed = !res.Success
		return res.Success
	})
	switch {
	case err != nil && (errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil):
		return withCode(exitFailure, fmt.Errorf("not every process was ready in time; see `procs status`"))
	case err != nil:
		return a.clientError(err)
	case failed:
		return silentExit(exitFailure)
	}
	return nil
}

// lastLines returns the last n lines of a file, indented, for messages.
func lastLines(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "  (no output)"
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "  | " + strings.Join(lines, "\n  | ")
}

// relPath shows path relative to the current folder when it is inside it.
func relPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
