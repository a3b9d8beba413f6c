package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/tui"
)

func (a *app) tuiCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "tui",
		Short: "Show a live dashboard of the running procs: states, reasons, logs, screens; act with single keys",
		Long: `Show a terminal dashboard of the procs running in this folder (started by
procs up, in the foreground or with -d): every process with its state, run,
ports, uptime, restarts and reason, live; the selected one's log (or, for a
PTY process, its screen). r restarts and shows the result, s stops, S starts,
R restarts all, x stops everything, i sends a line, a attaches to a PTY
process (Ctrl-] detaches), p pauses onIdle, / searches the log, ? lists every
key. q quits and leaves procs running. procs up --tui starts procs and shows it.
With no procs running yet, it waits and connects when procs up starts one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.reachableOrNotYet(); err != nil {
				return err
			}
			return a.runTUI(a.projectDir(), false)
		},
	}
}

// reachableOrNotYet checks the procs of the folder before the dashboard
// takes the terminal: none running yet is fine, since the dashboard says
// so and connects when one starts (as it reconnects after a restart); a
// socket of another user or a procs that does not answer is an error now.
func (a *app) reachableOrNotYet() error {
	sess, err := a.connect()
	if err != nil {
		if exitCodeOf(err) == exitNoProcs {
			return nil
		}
		return err
	}
	sess.close()
	return nil
}

// runTUI shows the dashboard of the procs of dir on this terminal; owned
// says this command started that procs, so quitting offers to stop it.
func (a *app) runTUI(dir string, owned bool) error {
	in, out, err := a.terminal()
	if err != nil {
		return err
	}
	opts := tui.Options{
		Dir:     dir,
		Owned:   owned,
		NoColor: a.noColor || a.getenv("NO_COLOR") != "",
		Attach:  a.attachProcess,
	}
	ctx, cancel := signalContext()
	defer cancel()
	err = tui.Run(ctx, opts, in, out, tea.WithEnvironment(a.environ))
	if ie := interruption(ctx); ie != nil {
		// Ended by a signal (SIGTERM, SIGHUP of a closed terminal), not
		// by the user's q: it exits 128+signal, as procs top does.
		return ie
	}
	if err != nil {
		return withCode(exitFailure, err)
	}
	return nil
}

// terminal is this command's terminal, or a usage error when it has none.
func (a *app) terminal() (in, out *os.File, err error) {
	in, inOK := a.stdin.(*os.File)
	out, outOK := a.stdout.(*os.File)
	if !inOK || !outOK || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil, nil, withCode(exitUsage, errors.New("tui needs a terminal: run it in one, or use procs status and procs logs -f"))
	}
	return in, out, nil
}

// attachProcess is `procs attach NAME` for the dashboard's a key: the same
// binary, folder and file, on the dashboard's terminal.
func (a *app) attachProcess(name string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	var args []string
	if a.file != "" {
		file, _ := filepath.Abs(a.file)
		args = append(args, "-f", file)
	}
	cmd := exec.Command(exe, append(args, "attach", name)...)
	cmd.Dir = a.workDir()
	cmd.Env = a.environ
	return cmd
}

// upTUI starts procs in the background, as up -d does, and shows its
// dashboard; quitting it asks whether to stop procs.
func (a *app) upTUI(cfg *config.Config, opts upOptions) error {
	if _, _, err := a.terminal(); err != nil {
		return err
	}
	if c, err := control.Dial(cfg.Dir); err == nil {
		defer c.Close()
		info, _ := c.Info(context.Background())
		return withCode(exitFailure, fmt.Errorf("%w; show it with procs tui", &control.AlreadyRunningError{PID: info.PID}))
	}
	ctx, cancel := signalContext()
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, opts.timeout)
	defer cancelTimeout()
	logPath := filepath.Join(cfg.Dir, ".procs", "logs", "procs.log")
	args := foregroundArgs(withoutArg(os.Args[1:], "--tui"))
	if _, err := spawnBackground(ctx, logPath, a.environ, a.workDir(), args); err != nil {
		return withCode(exitFailure, err)
	}
	return a.runTUI(cfg.Dir, true)
}

// withoutArg is args without every arg equal to drop.
func withoutArg(args []string, drop string) []string {
	var out []string
	for i, arg := range args {
		if arg == "--" {
			return append(out, args[i:]...)
		}
		if arg != drop && arg != drop+"=true" {
			out = append(out, arg)
		}
	}
	return out
}
