package contain

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// childProc is a started process: its command, its output streams and its input.
type childProc struct {
	cmd     *exec.Cmd
	pid     int
	outputs []output // read until EOF
	input   *os.File // stdin pipe or config.PTY master; nil if none
	// terminal is the PTY master of a PTY child, nil for pipes.
	terminal *os.File

	inputMu sync.Mutex
}

// output is one stream of a child.
type output struct {
	stream rules.Stream
	r      io.ReadCloser
}

// launch starts argv in its own process group (or, with a PTY window, its
// own session on a new terminal of that size), with a parent-death signal
// where the platform has one (osproc.GroupAttrs), from a spawner thread.
func launch(argv []string, dir string, env []string, window *pty.Winsize) (*childProc, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	argv = execArgv(argv)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	if window != nil && !osproc.Features().PTY {
		return nil, errNoPTY
	}
	if window != nil {
		return launchPTY(cmd, window)
	}
	return launchPipes(cmd)
}

func launchPipes(cmd *exec.Cmd) (*childProc, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW)
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		closeAll(outR, outW, errR, errW)
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = osproc.GroupAttrs()
	err = getSpawner().start(cmd, func() error { return osproc.Start(cmd) })
	// The child has its copies; ours would keep the pipes open forever.
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(outR, errR, inW)
		return nil, err
	}
	return &childProc{
		cmd: cmd, pid: cmd.Process.Pid, input: inW,
		outputs: []output{{rules.StreamStdout, outR}, {rules.StreamStderr, errR}},
	}, nil
}

func launchPTY(cmd *exec.Cmd, window *pty.Winsize) (*childProc, error) {
	var master *os.File
	// Set on cmd so that the spawner can add the run's cgroup to it.
	cmd.SysProcAttr = osproc.SessionAttrs()
	err := getSpawner().start(cmd, func() error {
		var err error
		master, err = pty.StartWithAttrs(cmd, window, cmd.SysProcAttr)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &childProc{
		cmd: cmd, pid: cmd.Process.Pid, input: master, terminal: master,
		outputs: []output{{rules.StreamPTY, master}},
	}, nil
}

// resize changes the window of the child's terminal; the kernel sends the
// child SIGWINCH, and a TUI redraws for the new size.
func (c *childProc) resize(cols, rows int) error {
	if c.terminal == nil {
		return errors.New("process has no terminal")
	}
	if err := pty.Setsize(c.terminal, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		return fmt.Errorf("resize terminal: %w", err)
	}
	return nil
}

// wait waits for the child and classifies how it ended.
func (c *childProc) wait() rules.Exit {
	osproc.AwaitExit(c.pid)
	err := c.cmd.Wait()
	getSpawner().forget(c.pid)
	state := c.cmd.ProcessState
	if state == nil {
		return rules.Exit{Code: -1, Err: err}
	}
	ws := state.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return rules.Exit{Code: 128 + int(ws.Signal()), Signal: ws.Signal()}
	}
	return rules.Exit{Code: ws.ExitStatus()}
}

// signalGroup sends sig to the child's whole process group.
func (c *childProc) signalGroup(sig syscall.Signal) {
	_ = osproc.SignalGroup(c.pid, sig)
}

// write sends input to the child, giving up after a while if it does not read.
func (c *childProc) write(p []byte) error {
	if c.input == nil {
		return errors.New("process has no input")
	}
	c.inputMu.Lock()
	defer c.inputMu.Unlock()
	_ = c.input.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.input.Write(p); err != nil {
		return fmt.Errorf("write input: %w", err)
	}
	return nil
}

// closeIO releases the parent's ends of the child's streams.
func (c *childProc) closeIO() {
	c.inputMu.Lock()
	defer c.inputMu.Unlock()
	for _, o := range c.outputs {
		_ = o.r.Close()
	}
	if c.input != nil && (len(c.outputs) == 0 || c.input != c.outputs[0].r) {
		_ = c.input.Close()
	}
	c.input = nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}
