package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/internal/osproc"
)

// detachKey is Ctrl-], as in telnet and docker attach.
const detachKey = 0x1d

func (a *app) attachCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "attach NAME",
		Short: "Connect this terminal to a PTY process; Ctrl-] detaches and leaves it running",
		Long: `Connect this terminal to a process running in a pseudo-terminal (pty: true,
or an agent, shell or REPL preset): its current screen is drawn, then what it
writes appears and what you type goes to it; the window size follows this
terminal. Ctrl-] detaches and leaves the process running.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, ok := a.stdin.(*os.File)
			if !ok || !term.IsTerminal(int(in.Fd())) {
				return withCode(exitUsage, errors.New("attach needs a terminal: run it in one, or use procs send"))
			}
			return a.attach(args[0], in)
		},
	}
}

func (a *app) attach(name string, in *os.File) error {
	sess, err := a.connect()
	if err != nil {
		return err
	}
	defer sess.close()
	c, ctx := sess.client, sess.ctx
	cols, rows := a.windowSize()
	conn, err := c.Attach(ctx, name, cols, rows)
	if err != nil {
		return a.terminalRefused(ctx, c, name, err, "there is none to attach to",
			fmt.Sprintf("`procs logs -f %s` follows its output and `procs send %s` writes to it", name, name))
	}
	defer conn.Close()
	state, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return withCode(exitFailure, fmt.Errorf("attach: raw mode: %w", err))
	}
	out := &modeTracker{w: a.stdout}
	// The session's bytes say nothing of a procs that stopped (Ctrl-Z,
	// SIGSTOP): its pings do.
	watched, stopWatch := c.Watch(ctx)
	defer stopWatch()
	ended := a.pumpAttach(watched, conn, in, out)
	// The program may still be running full screen: give the terminal
	// back as it was, screen and modes, before its line discipline.
	fmt.Fprint(a.stdout, out.restore())
	_ = term.Restore(int(in.Fd()), state)
	if ie := interruptedWhile(ctx, "detached from %s; it is still running", name); ie != nil {
		fmt.Fprint(a.stdout, "\r\n")
		return ie
	}
	if ended {
		fmt.Fprintf(a.stdout, "\r\n[procs: %s is no longer running]\r\n", name)
		return nil
	}
	if cause := context.Cause(watched); ctx.Err() == nil && cause != nil && !errors.Is(cause, context.Canceled) {
		fmt.Fprint(a.stdout, "\r\n")
		return withCode(exitFailure, fmt.Errorf("detached from %s: %w", name, cause))
	}
	fmt.Fprintf(a.stdout, "\r\n[procs: detached from %s; it is still running]\r\n", name)
	return nil
}

// pumpAttach copies the process's output to this terminal and keystrokes
// and window sizes to the process until Ctrl-] or ctx ends (false: a
// signal) or the end of the process's output (true).
func (a *app) pumpAttach(ctx context.Context, conn *control.AttachConn, in *os.File, out io.Writer) (ended bool) {
	output := make(chan struct{})
	go func() {
		defer close(output)
		_, _ = io.Copy(out, conn)
	}()
	// Closing the connection ends the copy; wait for it so nothing is
	// written to the terminal after its mode is restored.
	defer func() { _ = conn.Close(); <-output }()
	// A read on a terminal cannot be interrupted; this reader ends with
	// the command, which returns right after a detach. Its sends give up
	// once the command stopped reading.
	keys := make(chan []byte)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := in.Read(buf)
			if n > 0 {
				select {
				case keys <- bytes.Clone(buf[:n]):
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				close(keys)
				return
			}
		}
	}()
	winch := make(chan os.Signal, 1)
	osproc.NotifyResize(winch)
	defer signal.Stop(winch)
	for {
		select {
		case <-ctx.Done():
			return false
		case <-output:
			return true
		case <-winch:
			if cols, rows := a.windowSize(); cols > 0 {
				_ = conn.Resize(cols, rows)
			}
		case data, ok := <-keys:
			if !ok {
				return false
			}
			if i := bytes.IndexByte(data, detachKey); i >= 0 {
				if i > 0 {
					_ = conn.Input(data[:i])
				}
				return false
			}
			if conn.Input(data) != nil {
				return true
			}
		}
	}
}

// windowSize is the size of this terminal, 0 when it has none.
func (a *app) windowSize() (cols, rows int) {
	for _, s := range []any{a.stdout, a.stdin} {
		if f, ok := s.(*os.File); ok {
			if w, h, err := term.GetSize(int(f.Fd())); err == nil {
				return w, h
			}
		}
	}
	return 0, 0
}
