package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/internal/statedir"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/rules"
)

// upDetached runs `procs up` again in the background, in its own session
// with its output in .procs/procs.log, and returns once its API answers;
// with --wait, once every process is ready (or completed) or one fails.
func (a *app) upDetached(cfg *config.Config, names []string, opts upOptions) error {
	ctx, stop := signalContext()
	defer stop()
	a.signals = ctx
	// The processes have the whole --timeout to be ready; the answer that
	// says so, or what each was doing when it ran out, has a moment more.
	// Asking a procs already there (stopped, not answering) is within it.
	ctx, cancelTimeout := context.WithTimeout(ctx, opts.timeout+waitAnswerGrace)
	defer cancelTimeout()
	if err := alreadyRunning(ctx, cfg.Dir); err != nil {
		return err
	}
	logPath := procsLogPath(cfg.Dir)
	pid, err := spawnBackground(ctx, logPath, a.environ, a.workDir(), foregroundArgs(os.Args[1:]))
	var ie *interruptedError
	var exit *exitError
	switch {
	case errors.As(err, &ie):
		return err // exits 130 (143), saying what it did
	case errors.As(err, &exit):
		return err // the background procs' own code: 2 for a config error
	case err != nil:
		return withCode(exitFailure, err)
	}
	c, err := control.DialContext(ctx, cfg.Dir)
	if err != nil {
		return withCode(exitFailure, fmt.Errorf("procs started (pid %d) but does not answer: %w", pid, err))
	}
	defer c.Close()
	if opts.ui {
		a.openRemoteDashboard(ctx, c)
	}
	if !opts.wait && opts.jsonOut.on() {
		return opts.jsonOut.print(map[string]any{"pid": pid, "log": relPath(logPath)})
	}
	if !opts.wait {
		fmt.Fprintf(a.stdout, "procs running in the background (pid %d); output in %s\n", pid, relPath(logPath))
		return nil
	}
	err = a.waitAllReady(ctx, c, opts.jsonOut)
	if errors.Is(err, compose.ErrShuttingDown) || errors.Is(err, control.ErrNotRunning) {
		// It ended at once (every process failed to start): its own
		// output says why.
		return withCode(exitFailure, fmt.Errorf("procs (pid %d) ended before every process was ready:\n%s", pid, lastLines(logPath, 10)))
	}
	return err
}

// alreadyRunning refuses to start a second procs in dir, naming the
// running one; a procs that does not answer (stopped) is named too.
func alreadyRunning(ctx context.Context, dir string) error {
	c, err := control.DialContext(ctx, dir)
	var silent *control.NotAnsweringError
	switch {
	case errors.As(err, &silent):
		return withCode(exitFailure, fmt.Errorf("%w: %w", control.ErrAlreadyRunning, err))
	case err != nil:
		return nil
	}
	defer c.Close()
	if _, err := c.List(ctx); errors.Is(err, compose.ErrShuttingDown) {
		// It is ending (a `procs down`, or all its processes failed): wait
		// for it to let go of the folder; its event stream ends then.
		_ = c.Events(ctx, control.EventsOptions{After: -1}, func(compose.Event) error { return nil })
		return nil
	}
	info, _ := c.Info(ctx)
	return withCode(exitFailure, &control.AlreadyRunningError{PID: info.PID})
}

// procsLogPath is where a detached procs writes its own output: in the
// state folder, not among the logs of processes (.procs/logs/NAME.log), so
// that no process name can take it.
func procsLogPath(projectDir string) string {
	return filepath.Join(projectDir, ".procs", "procs.log")
}

// spawnBackground starts the detached procs, running this binary with args
// (`up ...`) in dir, and waits until it listens (it writes to a pipe then)
// or dies (the pipe closes unwritten). Until then it writes to a start-up
// log of its own, so that two starts at once each report their own output;
// the one that listens becomes logPath (the previous one is kept as
// logPath.1), the others are removed once quoted.
func spawnBackground(ctx context.Context, logPath string, environ []string, dir string, args []string) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("find the procs binary: %w", err)
	}
	if _, err := statedir.Ensure(dir); err != nil {
		return 0, err
	}
	if err := os.MkdirAll(filepath.Dir(logPath), statedir.Perm); err != nil {
		return 0, fmt.Errorf("create log folder: %w", err)
	}
	startLog := filepath.Join(filepath.Dir(logPath), fmt.Sprintf("up-%d.log", os.Getpid()))
	logFile, err := os.OpenFile(startLog, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, fmt.Errorf("open %s: %w", startLog, err)
	}
	defer logFile.Close()
	ready, notify, err := os.Pipe()
	if err != nil {
		return 0, fmt.Errorf("spawn procs: %w", err)
	}
	defer ready.Close()
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = osproc.DetachedAttrs()
	cmd.Env = append(append([]string{}, environ...), control.NotifyFDEnv+"="+osproc.InheritFile(cmd, notify))
	err = cmd.Start()
	notify.Close() // ours; the child holds its own copy
	if err != nil {
		_ = os.Remove(startLog)
		return 0, fmt.Errorf("spawn procs: %w", err)
	}
	pid := cmd.Process.Pid
	// Its exit code is read should it end before it listens; a send that
	// nobody reads (it listens, or this wait ends) does not block.
	exited := make(chan int, 1)
	go func() {
		_ = cmd.Wait()
		exited <- cmd.ProcessState.ExitCode()
	}()

	answered := make(chan bool, 1)
	go func() {
		line, _ := bufio.NewReader(ready).ReadString('\n')
		answered <- strings.TrimSpace(line) == "ready"
	}()
	select {
	case ok := <-answered:
		if !ok {
			err := startFailure(logFile, startLog)
			_ = os.Remove(startLog)
			return 0, withCode(backgroundExitCode(exited), err)
		}
		// It holds the folder's lock: no other start gets here now.
		_ = os.Rename(logPath, logPath+".1")
		if err := os.Rename(startLog, logPath); err != nil {
			return 0, fmt.Errorf("procs started (pid %d) but its log stays in %s: %w", pid, startLog, err)
		}
		return pid, nil
	case <-ctx.Done():
		// It has started nothing before it listens: stop it, rather than
		// leave a procs nobody waits for writing to a start-up log.
		_ = osproc.Signal(pid, syscall.SIGTERM)
		if ie := interruptedWhile(ctx, "stopped the background procs (pid %d) before it listened", pid); ie != nil {
			_ = os.Remove(startLog)
			return 0, ie
		}
		return 0, fmt.Errorf("procs (pid %d) did not start listening in time, and was stopped; see %s", pid, relPath(startLog))
	}
}

// backgroundExitCode is the exit code of procs up -d whose background procs
// ended before it listened: a config error (2) stays one, as in the
// foreground; anything else, or a procs that does not end within a few
// seconds of closing its pipe, is a failure (1).
func backgroundExitCode(exited <-chan int) int {
	select {
	case code := <-exited:
		if code == exitUsage {
			return exitUsage
		}
	case <-time.After(5 * time.Second):
	}
	return exitFailure
}

// startFailure is the error of a background procs that exited before it
// listened: the last lines of its start-up log or, when it wrote none, why.
// A full disk takes its words with it, so an empty log is tried for a write.
func startFailure(logFile *os.File, startLog string) error {
	if info, err := logFile.Stat(); err == nil && info.Size() == 0 {
		if _, err := logFile.WriteString("(procs printed nothing)\n"); err != nil {
			return fmt.Errorf("procs exited at start, and what it said was lost: %w", err)
		}
		return errors.New("procs exited at start without a word: run procs up in the foreground to see why")
	}
	return fmt.Errorf("procs exited at start:\n%s", lastLines(startLog, 10))
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
		case "-d", "--detach", "--wait", "--ui":
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
// completed, for a task); the first failure ends the wait with exit 1. On a
// terminal a line per process shows what it waits for, then its result
// (progress); piped, or with --json, nothing shows until the end, and then
// in start order.
func (a *app) waitAllReady(ctx context.Context, c *control.Client, jsonOut *jsonOutput) error {
	deadline, _ := ctx.Deadline()
	// procs' own waits end waitAnswerGrace before this command gives up,
	// at the end of --timeout, so what each process was doing when time ran
	// out is printed.
	wait := max(time.Until(deadline)-waitAnswerGrace, 0)
	var failed bool
	var err error
	if !jsonOut.on() && a.stdoutIsTerminal() {
		failed, err = a.waitShowingProgress(ctx, c, wait)
	} else {
		failed, err = a.waitQuietly(ctx, c, wait, jsonOut)
	}
	switch {
	case err != nil && (errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil):
		return withCode(exitFailure, fmt.Errorf("not every process was ready in time; see `procs status`"))
	case err != nil && (errors.Is(err, compose.ErrShuttingDown) || errors.Is(err, control.ErrNotRunning)):
		return err
	case err != nil:
		return a.clientError(err)
	case failed:
		return silentExit(exitFailure)
	}
	return a.failedSince(ctx, c)
}

// waitAnswerGrace is how long after --timeout `up -d --wait` waits for
// procs' answer: the results, or what each process was doing.
const waitAnswerGrace = 2 * time.Second

// waitQuietly is waitAllReady when piped or with --json: the results are
// printed once the wait ends, in start order.
func (a *app) waitQuietly(ctx context.Context, c *control.Client, wait time.Duration, jsonOut *jsonOutput) (failed bool, err error) {
	var held []placedResult
	err = c.WaitAll(ctx, wait, func(place int, res rules.Result) bool {
		held = append(held, placedResult{place, res})
		failed = failed || !res.Success
		return res.Success
	})
	if failed && err == nil {
		held = append(held, restAfterFailure(ctx, c, wait, held)...)
	}
	slices.SortFunc(held, func(x, y placedResult) int { return x.place - y.place })
	for _, h := range held {
		if jsonOut.on() {
			_ = jsonOut.print(h.res)
		} else {
			a.printResult(h.res)
		}
	}
	return failed, err
}

// restAfterFailure gives a result for each process that the wait, stopped
// at its first failure, left without one (held has those in), so that
// there is one per process: its own when it is settled (the failed process
// whose answer came after its dependents', the dependents it blocked),
// else that it was not waited for, naming what failed.
func restAfterFailure(ctx context.Context, c *control.Client, wait time.Duration, held []placedResult) []placedResult {
	answered := map[string]bool{}
	for _, h := range held {
		answered[h.res.Name] = true
	}
	rest, list := settledAfterFailure(ctx, c, wait, answered)
	for _, r := range rest {
		answered[r.res.Name] = true
	}
	why := firstFailure(append(slices.Clone(held), rest...))
	for place, st := range list {
		if !answered[st.Name] && st.State != rules.StateStopped {
			rest = append(rest, placedResult{place, notWaitedFor(st, why)})
		}
	}
	return rest
}

// failedSince fails the wait when a process failed after its own wait
// answered (ready, then dead before the others were): up -d --wait never
// exits 0 while a process it waited for is failed.
func (a *app) failedSince(ctx context.Context, c *control.Client) error {
	list, err := c.List(ctx)
	if err != nil {
		return nil // procs ended: everything it ran completed
	}
	failed := false
	for _, st := range list {
		if st.State == rules.StateFailed {
			fmt.Fprintf(a.stderr, "%s failed (run %d): %s\n", st.Name, st.Run, st.Message)
			failed = true
		}
	}
	if failed {
		return silentExit(exitFailure)
	}
	return nil
}

// placedResult is a result and its process's place in start order.
type placedResult struct {
	place int
	res   rules.Result
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
