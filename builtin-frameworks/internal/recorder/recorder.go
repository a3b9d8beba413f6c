//go:build unix

// Package recorder runs a real program and records what it writes, read by
// read, with timing, in the capture format of shared/fixtures: chunks.jsonl,
// output.raw, meta.json and cmd.txt. Captures are the ground truth the
// presets are tested against, so the recorder never edits output.
package recorder

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"os/user"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/procsdev/procs/internal/capture"
)

// DefaultEnv is the environment every recorded program gets, the same as
// the shared fixtures, so captures do not depend on the recording shell.
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
	// opened (or ReadyLine appeared, without a port); 0 never does.
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

// recording collects chunks from the output readers.
type recording struct {
	mu       sync.Mutex
	start    time.Time
	max      int
	bytes    int
	res      *Result
	ready    *regexp.Regexp
	partial  map[string][]byte
	readyHit chan struct{}
}

func (r *recording) since() float64 {
	return float64(time.Since(r.start).Microseconds()/1000) / 1000
}

func (r *recording) add(stream string, data []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.since()
	if r.bytes+len(data) > r.max {
		data = data[:max(0, r.max-r.bytes)]
		r.res.Truncated = true
	}
	if len(data) == 0 {
		return
	}
	r.bytes += len(data)
	r.res.Chunks = append(r.res.Chunks, capture.Chunk{T: t, Stream: stream, Data: append([]byte(nil), data...)})
	r.findReadyLine(stream, data, t)
}

// findReadyLine looks for the first line matching the ready regex.
func (r *recording) findReadyLine(stream string, data []byte, t float64) {
	if r.ready == nil || r.res.ReadyLineT != nil {
		return
	}
	buf := append(r.partial[stream], data...)
	for {
		i := indexEOL(buf)
		if i < 0 {
			break
		}
		line := stripANSI(string(buf[:i]))
		buf = buf[i+1:]
		if r.ready.MatchString(line) {
			r.res.ReadyLine, r.res.ReadyLineT = line, &t
			close(r.readyHit)
			return
		}
	}
	r.partial[stream] = buf
}

func indexEOL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

var ansiRe = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\r`)

func stripANSI(s string) string { return ansiRe.ReplaceAllString(s, "") }

// Run runs the program and records it until it exits.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 64 << 10
	}
	if opts.Signal == 0 {
		opts.Signal = syscall.SIGINT
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.Occupy && opts.Port > 0 {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(opts.Port))
		if err != nil {
			return nil, fmt.Errorf("occupy port %d: %w", opts.Port, err)
		}
		defer ln.Close()
	}
	// exec: the program, not a shell around it, gets the signal and its
	// exit status is the one recorded.
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
	rec := &recording{max: opts.MaxBytes, res: &Result{}, ready: opts.ReadyLine,
		partial: map[string][]byte{}, readyHit: make(chan struct{})}
	var readers sync.WaitGroup
	read := func(stream string, r io.Reader) {
		defer readers.Done()
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				rec.add(stream, buf[:n])
			}
			if err != nil {
				return
			}
		}
	}
	if opts.PTY {
		ptmx, tty, err := pty.Open()
		if err != nil {
			return nil, fmt.Errorf("open pty: %w", err)
		}
		defer ptmx.Close()
		_ = pty.Setsize(ptmx, &pty.Winsize{Cols: 120, Rows: 40})
		cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
		rec.start = time.Now()
		if err := cmd.Start(); err != nil {
			tty.Close()
			return nil, fmt.Errorf("start %q: %w", opts.Command, err)
		}
		tty.Close()
		readers.Add(1)
		if opts.Terminal != nil {
			go func() {
				defer readers.Done()
				opts.Terminal.run(rec, ptmx)
			}()
		} else {
			go read("pty", ptmx)
		}
	} else {
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		stderr, err := cmd.StderrPipe()
		if err != nil {
			return nil, err
		}
		rec.start = time.Now()
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("start %q: %w", opts.Command, err)
		}
		readers.Add(2)
		go read("stdout", stdout)
		go read("stderr", stderr)
	}
	return rec.supervise(ctx, cmd, opts, &readers)
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
	portOpen := make(chan struct{})
	probeCtx, stopProbe := context.WithCancel(ctx)
	defer stopProbe()
	if opts.Port > 0 && !opts.Occupy {
		go rec.probe(probeCtx, opts.Port, portOpen)
	}
	readySignal := portOpen
	if opts.Port == 0 || opts.Occupy {
		readySignal = rec.readyHit
	}
	var stopTimer <-chan time.Time
	timeout := time.After(opts.Timeout)
	signal := func() {
		if rec.res.SignalAt == nil {
			t := rec.since()
			rec.res.SignalAt, rec.res.Signal = &t, signalName(opts.Signal)
			_ = syscall.Kill(-cmd.Process.Pid, opts.Signal)
		}
	}
	var waitErr error
loop:
	for {
		select {
		case <-readySignal:
			readySignal = nil
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
		case waitErr = <-exited:
			break loop
		}
	}
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
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) {
		return nil, fmt.Errorf("wait: %w", waitErr)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		rec.res.ExitSignal = signalName(ws.Signal())
	} else {
		code := ws.ExitStatus()
		rec.res.ExitCode = &code
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
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
