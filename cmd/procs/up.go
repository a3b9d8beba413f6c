package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/control"
)

// upOptions are the flags of `procs up`.
type upOptions struct {
	detach    bool
	wait      bool
	timeout   time.Duration
	untilDown bool
}

// untilDownFlag tells the background procs of `up -d` to stay until
// `procs down`: a process that ended (a REPL left with exit()) is still
// shown, and can be started again.
const untilDownFlag = "--until-down"

func (a *app) upCommand() *cobra.Command {
	var opts upOptions
	cmd := &cobra.Command{
		Use:   "up [NAME...]",
		Short: "Start the processes (or NAME... and their dependencies) in dependency order and supervise them",
		Long: `Start every process of procs.yaml in dependency order, each gated on its
dependencies being ready, and stream their output as "name | line".
Ctrl-C stops everything in reverse dependency order; a second Ctrl-C kills at once.
With -d, procs runs in the background (output in .procs/logs/); with --wait it
returns once every process is ready, or exits 1 saying which one failed and why.`,
		RunE: func(cmd *cobra.Command, names []string) error {
			cfg, err := a.loadConfig()
			if err != nil {
				return err
			}
			if opts.detach {
				return a.upDetached(cfg, names, opts)
			}
			return a.upForeground(cfg, names, opts.untilDown)
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&opts.detach, "detach", "d", false, "run in the background; output goes to .procs/logs/")
	f.BoolVar(&opts.wait, "wait", false, "with -d: return when every process is ready (exit 1 if one fails)")
	f.DurationVar(&opts.timeout, "timeout", 5*time.Minute, "with --wait: give up after this long")
	f.BoolVar(&opts.untilDown, untilDownFlag[2:], false, "stay until procs down, even once every process has ended (the background procs of -d)")
	_ = f.MarkHidden(untilDownFlag[2:])
	return cmd
}

// upForeground runs the engine in this process until Ctrl-C, SIGTERM,
// `procs down`, or until nothing runs any more.
func (a *app) upForeground(cfg *compose.Config, names []string, untilDown bool) error {
	engine, err := compose.New(cfg, compose.Options{Only: names, UntilDown: untilDown})
	if err != nil {
		return withCode(exitUsage, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	server, err := control.Serve(ctx, engine, cfg.Dir)
	if err != nil {
		return withCode(exitFailure, err)
	}
	defer server.Close()

	printer := compose.NewPrinter(a.stdout, cfg.Names(), a.plainOutput())
	sub := engine.Bus().Subscribe(true)
	stopPrinter := make(chan struct{})
	printed := make(chan struct{})
	go func() { printer.Run(sub, stopPrinter); close(printed) }()

	go a.forwardSignals(ctx, engine)
	outcome, err := engine.Run(context.Background())
	close(stopPrinter)
	<-printed
	if err != nil {
		return withCode(exitFailure, err)
	}
	if outcome.AllEnded && hasService(cfg) {
		fmt.Fprintln(a.stderr, "procs: every process has ended; stopping (procs up -d stays until procs down)")
	}
	if len(outcome.Failed) > 0 {
		fmt.Fprintf(a.stderr, "procs: failed: %v\n", outcome.Failed)
		return silentExit(exitFailure)
	}
	return nil
}

// forwardSignals turns the first Ctrl-C or SIGTERM into an orderly shutdown
// and a second one into killing everything at once.
func (a *app) forwardSignals(ctx context.Context, engine *compose.Engine) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	for {
		select {
		case <-sigs:
			if engine.Down() != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// plainOutput says whether to write no colour codes of procs' own.
func (a *app) plainOutput() bool {
	if a.noColor || a.getenv("NO_COLOR") != "" {
		return true
	}
	if f, ok := a.stdout.(*os.File); ok {
		return !isatty.IsTerminal(f.Fd())
	}
	return true
}

// getenv reads a variable from the app's environment.
func (a *app) getenv(name string) string {
	for i := len(a.environ) - 1; i >= 0; i-- {
		kv := a.environ[i]
		if len(kv) > len(name) && kv[:len(name)] == name && kv[len(name)] == '=' {
			return kv[len(name)+1:]
		}
	}
	return ""
}

// hasService reports whether some process is a service, not a task: its end
// ending procs is worth saying.
func hasService(cfg *compose.Config) bool {
	for _, p := range cfg.Procs {
		if !p.IsTask() {
			return true
		}
	}
	return false
}
