package contain

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/creack/pty"

	"github.com/procsdev/procs/internal/osproc"
	"github.com/procsdev/procs/rules"
)

// Process is a started process tree, seen through its root: its command,
// its output streams and its input.
type Process struct {
	cmd *exec.Cmd
	pid int
	// exit takes the root's exit where the start gave a pidfd; otherwise
	// cmd.Wait does.
	exit    *osproc.ChildExit
	outputs []Output // read until EOF
	input   *os.File // stdin pipe or config.PTY master; nil if none
	// terminal is the PTY master of a PTY child, nil for pipes.
	terminal *os.File
	// owner is the run the tree belongs to; startTicks is when the root
	// started or a moment before (osproc.StartTimeNow before the fork; 0
	// when unknown), to tell what it leaves behind from older processes.
	owner      Owner
	startTicks uint64
	watchdog   *watchdog // nil without one
	// limits are the cgroups holding the run to its resources; nil
	// without limits.
	limits *runLimits
	// leftGroup records that some process of the run was seen outside its
	// process group (a setsid daemon, what was left behind): once gone, it
	// may wait as procs' zombie where the group's reaping does not look.
	leftGroup atomic.Bool // set by a deferred look too
	// outside is a stop's look for the run's processes outside its
	// process group, while it is deferred (see SignalRun).
	outside deferredLook

	// inputMu orders writes to the child's stdin or terminal between the
	// run's input writer and attached terminals.
	inputMu sync.Mutex
}

// Output is one stream of a child.
type Output struct {
	Stream rules.Stream
	Reader io.ReadCloser
}

// launch starts spec.Argv in its own process group (or, with a PTY window,
// its own session on a new terminal of that size), with a parent-death
// signal where the platform has one (osproc.GroupAttrs), from a spawner
// thread, in the cgroup of spec.Owner where its engine has cgroups.
func launch(spec Spec) (*Process, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("empty command")
	}
	argv := execArgv(spec.Argv)
	program, err := osproc.ProgramFor(argv[0], spec.Env, spec.Dir)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(program, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = spec.Dir
	cmd.Env = spec.Env
	if spec.Window != nil && !osproc.Features().PTY {
		return nil, errNoPTY
	}
	var limits *runLimits
	if !spec.Limits.IsZero() {
		if limits, err = getSpawner().limitRun(cmd, spec.Owner, spec.Limits); err != nil {
			return nil, err
		}
	}
	var p *Process
	// Taken before the fork, not read from the child: that was a read of
	// /proc per start, for a comparison this value serves as well.
	started := osproc.StartTimeNow()
	if spec.Window != nil {
		p, err = launchPTY(cmd, spec.Owner, spec.Window)
	} else {
		p, err = launchPipes(cmd, spec.Owner, spec.NoInput)
	}
	if err != nil {
		limits.remove()
		return nil, err
	}
	p.owner, p.limits, p.startTicks = spec.Owner, limits, started
	return p, nil
}

func launchPipes(cmd *exec.Cmd, owner Owner, noInput bool) (*Process, error) {
	outR, outW, err := childPipe(false)
	if err != nil {
		return nil, err
	}
	errR, errW, err := childPipe(false)
	if err != nil {
		closeAll(outR, outW)
		return nil, err
	}
	var inR, inW *os.File // nil: os/exec gives the child /dev/null
	if !noInput {
		if inW, inR, err = childPipe(true); err != nil {
			closeAll(outR, outW, errR, errW)
			return nil, err
		}
		cmd.Stdin = inR
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.SysProcAttr = osproc.GroupAttrs()
	exit := osproc.WatchExit(cmd.SysProcAttr)
	err = getSpawner().start(cmd, owner, func() error { return osproc.Start(cmd) })
	// The child has its copies; ours would keep the pipes open forever.
	closeAll(inR, outW, errW)
	if err != nil {
		closeAll(outR, errR, inW)
		return nil, err
	}
	return &Process{
		cmd: cmd, pid: started(cmd, exit), exit: exit, input: inW,
		outputs: []Output{{rules.StreamStdout, outR}, {rules.StreamStderr, errR}},
	}, nil
}

// started returns the pid of cmd, just started, and lets go of the os
// package's handle of it where exit takes the exit: that is a second
// pidfd, held for nothing while the child runs (one more descriptor for
// every later child's exec to close), and closed at its end.
func started(cmd *exec.Cmd, exit *osproc.ChildExit) int {
	pid := cmd.Process.Pid
	if exit.Watched() {
		_ = cmd.Process.Release()
	}
	return pid
}

func launchPTY(cmd *exec.Cmd, owner Owner, window *pty.Winsize) (*Process, error) {
	var master *os.File
	// Set on cmd so that the spawner can add the run's cgroup to it.
	cmd.SysProcAttr = osproc.SessionAttrs()
	exit := osproc.WatchExit(cmd.SysProcAttr)
	err := getSpawner().start(cmd, owner, func() error {
		var err error
		master, err = pty.StartWithAttrs(cmd, window, cmd.SysProcAttr)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &Process{
		cmd: cmd, pid: started(cmd, exit), exit: exit, input: master, terminal: master,
		outputs: []Output{{rules.StreamPTY, master}},
	}, nil
}

// PID is the pid of the root of the tree, the leader of its process group.
func (c *Process) PID() int { return c.pid }

// Outputs are the streams of the root, to read until EOF.
func (c *Process) Outputs() []Output { return c.outputs }

// Resize changes the window of the child's terminal; the kernel sends the
// child SIGWINCH, and a TUI redraws for the new size.
func (c *Process) Resize(cols, rows int) error {
	if c.terminal == nil {
		return errors.New("process has no terminal")
	}
	if err := pty.Setsize(c.terminal, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}); err != nil {
		return fmt.Errorf("resize terminal: %w", err)
	}
	return nil
}

// Wait waits for the root of the tree to exit (on a pidfd where there is
// one, not on a thread blocked in waitid) and classifies how it ended.
func (c *Process) Wait() rules.Exit {
	ws, err := c.waitRoot()
	getSpawner().forget(c.pid)
	// After the exit is read, the OOM count of the run's cgroup included.
	defer c.afterMainExit()
	if err != nil {
		return rules.Exit{Code: -1, Err: err}
	}
	if ws.Signaled() {
		exit := rules.Exit{Code: 128 + int(ws.Signal()), Signal: ws.Signal()}
		if ws.Signal() == syscall.SIGKILL {
			exit.MemoryLimit = c.limits.memoryKill()
		}
		return exit
	}
	exit := rules.Exit{Code: ws.ExitStatus()}
	if exit.Code == 128+int(syscall.SIGKILL) {
		// A shell whose child the kernel killed exits 137.
		exit.MemoryLimit = c.limits.memoryKill()
	}
	return exit
}

// waitRoot waits for the root to exit and reaps it: on the pidfd the
// start gave (osproc.ChildExit), else as Go does.
func (c *Process) waitRoot() (status syscall.WaitStatus, err error) {
	if c.exit.Watched() {
		return c.exit.Wait(c.pid)
	}
	osproc.AwaitExit(c.pid)
	err = c.cmd.Wait()
	if c.cmd.ProcessState == nil {
		return status, err
	}
	return c.cmd.ProcessState.Sys().(syscall.WaitStatus), nil
}

// Signal sends sig to the tree's whole process group.
func (c *Process) Signal(sig syscall.Signal) {
	_ = osproc.SignalGroup(c.pid, sig)
}

// Write sends input to the child, giving up after a while if it does not read.
func (c *Process) Write(p []byte) error {
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

// CloseIO releases the parent's ends of the child's streams.
func (c *Process) CloseIO() {
	c.inputMu.Lock()
	defer c.inputMu.Unlock()
	for _, o := range c.outputs {
		_ = o.Reader.Close()
	}
	if c.input != nil && (len(c.outputs) == 0 || c.input != c.outputs[0].Reader) {
		_ = c.input.Close()
	}
	c.input = nil
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}
