//go:build unix

// Package recorder runs a real program and records what it writes, read by
// read, with timing, in the capture format of package internal/capture:
// chunks.jsonl, output.raw, meta.json and cmd.txt. Captures are the ground truth the
// presets are tested against, so the recorder never edits output.
package recorder

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/procsdev/procs/internal/capture"
)

// DefaultEnv is the environment every recorded program gets, the same for
// every capture, so captures do not depend on the recording shell.
var DefaultEnv = []string{
	"PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"HOME=/root", "LANG=C.UTF-8", "TERM=xterm-256color", "USER=root",
}

// Options says what to run and how.
type Options struct {
	// Command runs through sh -c in Dir.
	Command string
	Dir     string
	// Env is added to DefaultEnv.
	Env []string
	// PTY runs the program on a pseudo-terminal instead of pipes.
	PTY bool
	// User runs the program as this user (postgres and mariadb refuse root).
	User string
	// Port, when set, is probed with TCP connects to learn when it opens.
	Port int
	// Occupy holds Port with a listener that never accepts, for
	// port-in-use runs; the port is then not probed.
	Occupy bool
	// ReadyLine finds the line a person would call "ready" (optional).
	ReadyLine *regexp.Regexp
	// StopAfter sends Signal to the process group this long after the port
	// opened and ReadyLine appeared (either alone when only one is given);
	// 0 never does.
	StopAfter time.Duration
	Signal    syscall.Signal
	// Timeout stops a program that neither exits nor gets ready.
	Timeout time.Duration
	// MaxBytes caps the recorded output; the rest is read and dropped.
	MaxBytes int
	// Terminal, with PTY, answers the program's terminal queries (cursor
	// position, device attributes) and types Steps, as a person at a
	// terminal would (see interact.go).
	Terminal *Terminal
}

// Result is what happened during a run.
type Result struct {
	Chunks    []capture.Chunk
	Truncated bool
	// Times are seconds since start; nil when it did not happen.
	PortOpenT  *float64
	ReadyLine  string
	ReadyLineT *float64
	SignalAt   *float64
	Signal     string
	ExitT      float64
	ExitCode   *int
	ExitSignal string
}

// Run runs the program and records it until it exits.
func Run(ctx context.Context, opts Options) (*Result, error) {
	opts = withDefaults(opts)
	if opts.Occupy && opts.Port > 0 {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(opts.Port))
		if err != nil {
			return nil, fmt.Errorf("occupy port %d: %w", opts.Port, err)
		}
		defer ln.Close()
	}
	cmd, err := command(opts)
	if err != nil {
		return nil, err
	}
	rec := &recording{max: opts.MaxBytes, res: &Result{}, ready: opts.ReadyLine,
		partial: map[string][]byte{}, readyHit: make(chan struct{})}
	var readers sync.WaitGroup
	if opts.PTY {
		ptmx, err := rec.startPTY(cmd, opts, &readers)
		if err != nil {
			return nil, err
		}
		defer ptmx.Close()
	} else if err := rec.startPipes(cmd, opts, &readers); err != nil {
		return nil, err
	}
	return rec.supervise(ctx, cmd, opts, &readers)
}

// withDefaults fills the options left at zero.
func withDefaults(opts Options) Options {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 64 << 10
	}
	if opts.Signal == 0 {
		opts.Signal = syscall.SIGINT
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	return opts
}

// command builds the command that runs opts.Command: through sh -c with
// exec, so the program, not a shell around it, gets the signal and its exit
// status is the one recorded; in a process group (a session on a PTY).
func command(opts Options) (*exec.Cmd, error) {
	cmd := exec.Command("sh", "-c", "exec "+opts.Command)
	cmd.Dir = opts.Dir
	cmd.Env = append(append([]string(nil), DefaultEnv...), opts.Env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: !opts.PTY, Setsid: opts.PTY, Setctty: opts.PTY}
	if opts.User != "" {
		cred, err := credential(opts.User)
		if err != nil {
			return nil, err
		}
		cmd.SysProcAttr.Credential = cred
	}
	return cmd, nil
}

// startPTY starts cmd on a new pseudo-terminal and reads it (through the
// Terminal when there is one); the caller closes the returned master.
func (rec *recording) startPTY(cmd *exec.Cmd, opts Options, readers *sync.WaitGroup) (*os.File, error) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("open pty: %w", err)
	}
	_ = pty.Setsize(ptmx, &pty.Winsize{Cols: 120, Rows: 40})
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	rec.start = time.Now()
	err = startWithDefault(opts.Signal, cmd.Start)
	tty.Close()
	if err != nil {
		ptmx.Close()
		return nil, fmt.Errorf("start %q: %w", opts.Command, err)
	}
	readers.Add(1)
	go func() {
		defer readers.Done()
		if opts.Terminal != nil {
			opts.Terminal.run(rec, ptmx)
			return
		}
		rec.read("pty", ptmx)
	}()
	return ptmx, nil
}

// startPipes starts cmd with stdout and stderr on pipes and reads both.
func (rec *recording) startPipes(cmd *exec.Cmd, opts Options, readers *sync.WaitGroup) error {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	rec.start = time.Now()
	if err := startWithDefault(opts.Signal, cmd.Start); err != nil {
		return fmt.Errorf("start %q: %w", opts.Command, err)
	}
	readers.Add(2)
	for stream, r := range map[string]io.Reader{"stdout": stdout, "stderr": stderr} {
		go func() {
			defer readers.Done()
			rec.read(stream, r)
		}()
	}
	return nil
}
