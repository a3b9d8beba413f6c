//go:build unix

package recorder

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// startMu keeps startWithDefault's change of this process's signal
// disposition to one start at a time.
var startMu sync.Mutex

// startWithDefault runs start so that the program gets sig with its default
// action. A shell without job control starts a background job (`capture-all.sh
// &`, a CI runner) with SIGINT ignored, exec keeps an ignored signal ignored,
// and the program would shrug off the Ctrl-C that ends its recording. A
// caught signal is reset by exec, so the recorder catches sig while the
// program starts, then ignores it again.
func startWithDefault(sig syscall.Signal, start func() error) error {
	startMu.Lock()
	defer startMu.Unlock()
	if !signal.Ignored(sig) {
		return start()
	}
	signal.Notify(make(chan os.Signal, 1), sig)
	defer signal.Ignore(sig)
	return start()
}

// supervise probes the port, stops the program when asked, and waits.
func (rec *recording) supervise(ctx context.Context, cmd *exec.Cmd, opts Options, readers *sync.WaitGroup) (*Result, error) {
	exited := make(chan error, 1)
	go func() {
		// The pipes must be drained before Wait closes them.
		if !opts.PTY {
			readers.Wait()
		}
		exited <- cmd.Wait()
	}()
	probeCtx, stopProbe := context.WithCancel(ctx)
	defer stopProbe()
	waitErr := rec.untilExit(cmd, opts, rec.readySignal(probeCtx, opts), exited)
	rec.mu.Lock()
	rec.res.ExitT = rec.since()
	rec.mu.Unlock()
	if opts.PTY {
		// The pty reader ends when the last holder of the tty exits.
		done := make(chan struct{})
		go func() { readers.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
	}
	return rec.exitStatus(cmd, waitErr)
}

// readySignal is closed when the program is ready: its port accepts (probed
// until ctx ends) and its ready line, when one is given, has appeared;
// without a port to probe, the line alone. A dev server may listen long
// before its first build is done (react-scripts 5: the port at 2.5 s,
// "Compiled successfully!" at 10 s), and a stop timed from the port ended
// the capture before the line it was for.
func (rec *recording) readySignal(ctx context.Context, opts Options) <-chan struct{} {
	if opts.Port == 0 || opts.Occupy {
		return rec.readyHit
	}
	portOpen := make(chan struct{})
	go rec.probe(ctx, opts.Port, portOpen)
	if opts.ReadyLine == nil {
		return portOpen
	}
	both := make(chan struct{})
	go func() {
		for _, ready := range []<-chan struct{}{portOpen, rec.readyHit} {
			select {
			case <-ready:
			case <-ctx.Done():
				return
			}
		}
		close(both)
	}()
	return both
}

// untilExit waits for the exit, signalling the process group StopAfter
// after ready, or at the timeout, and killing it 10 s after that.
func (rec *recording) untilExit(cmd *exec.Cmd, opts Options, ready <-chan struct{}, exited <-chan error) error {
	var stopTimer <-chan time.Time
	timeout := time.After(opts.Timeout)
	signal := func() {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if rec.res.SignalAt == nil {
			t := rec.since()
			rec.res.SignalAt, rec.res.Signal = &t, signalName(opts.Signal)
			_ = syscall.Kill(-cmd.Process.Pid, opts.Signal)
		}
	}
	for {
		select {
		case <-ready:
			ready = nil
			if opts.StopAfter > 0 {
				stopTimer = time.After(opts.StopAfter)
			}
		case <-stopTimer:
			signal()
			timeout = time.After(10 * time.Second)
		case <-timeout:
			if rec.res.SignalAt == nil {
				signal()
				timeout = time.After(10 * time.Second)
			} else {
				_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			}
		case err := <-exited:
			return err
		}
	}
}

// exitStatus records how the program ended.
func (rec *recording) exitStatus(cmd *exec.Cmd, waitErr error) (*Result, error) {
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return nil, fmt.Errorf("wait: %w", waitErr)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		rec.res.ExitSignal = signalName(ws.Signal())
	} else {
		code := ws.ExitStatus()
		rec.res.ExitCode = &code
	}
	return rec.res, nil
}

// probe connects to the port until it accepts.
func (rec *recording) probe(ctx context.Context, port int, open chan<- struct{}) {
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for ctx.Err() == nil {
		conn, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			conn.Close()
			rec.mu.Lock()
			t := rec.since()
			rec.res.PortOpenT = &t
			rec.mu.Unlock()
			close(open)
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func credential(name string) (*syscall.Credential, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("look up user %s: %w", name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}
