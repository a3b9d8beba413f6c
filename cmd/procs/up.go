package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/internal/startgc"
	"github.com/procsdev/procs/rules"
)

// upOptions are the flags of `procs up`.
type upOptions struct {
	detach        bool
	wait          bool
	timeout       time.Duration
	exitOnFailure bool
	jsonOut       *jsonOutput
	ui            bool   // serve the web dashboard and open it
	listen        string // the dashboard's explicit address
	tui           bool
	untilDown     bool
	profiles      []string // --profile values; activeProfiles adds PROCS_PROFILES
	scaleArgs     []string // --scale NAME=N values
	scale         map[string]int
	endStartGC    func() // ends the garbage collector's start pace (startgc)
}

// startGCLimit bounds the garbage collector's start pace (startgc) for a
// start that never has all its processes ready.
const startGCLimit = 30 * time.Second

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
returns once every process is ready, or exits 1 saying which one failed and why.
The foreground procs stays up while a process could still be started or
restarted (procs restart, procs start), until Ctrl-C (exit 130), procs down,
every process being a completed task, or with --exit-on-failure the first
failure (exit 1).
When procs already runs in the folder, procs up applies the edited
procs.yaml to it (like procs reload): what changed restarts, new processes
start, removed ones stop, and those stopped with procs stop start again
(not a completed task); with --wait it waits for all of them.`,
		RunE: func(cmd *cobra.Command, names []string) error {
			// The pace ends once all are ready (upForeground), or here
			// when this procs only asks another one to do the work.
			opts.endStartGC = startgc.Begin(startGCLimit)
			defer opts.endStartGC()
			cfg, err := a.loadConfigToDetect()
			if err != nil {
				return err
			}
			if opts.profiles, err = a.activeProfiles(cfg, opts.profiles); err != nil {
				return withCode(exitUsage, err)
			}
			if cfg, err = opts.scaled(cfg); err != nil {
				return withCode(exitUsage, err)
			}
			if !opts.untilDown { // its parent, procs up -d, said it
				warnConfig(a.stderr, "procs: ", cfg)
			}
			if opts.tui {
				return a.upTUI(cfg, opts)
			}
			// The background procs of up -d never reconciles: it runs, or
			// says another procs won the folder, which its parent quotes.
			if !opts.untilDown {
				c, err := a.dialRunning(cfg.Dir, opts.timeout)
				if c != nil {
					c.Close()
					return a.upRunning(cfg, names, opts)
				}
				if err != nil {
					return err
				}
			}
			if opts.detach {
				return a.upDetached(cfg, names, opts)
			}
			return a.upForeground(cfg, names, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&opts.detach, "detach", "d", false, "run in the background; output goes to .procs/logs/")
	f.BoolVar(&opts.wait, "wait", false, "with -d: return when every process is ready (exit 1 if one fails)")
	f.BoolVar(&opts.tui, "tui", false, "run in the background and show the dashboard (procs tui); quitting asks whether to stop")
	f.DurationVar(&opts.timeout, "timeout", 5*time.Minute, "with --wait: give up after this long")
	f.BoolVar(&opts.ui, "ui", false, "serve the web dashboard and open it in the browser (see procs ui)")
	f.StringVar(&opts.listen, "listen", "", "serve the web dashboard on this host:port instead of 127.0.0.1 (other machines can reach it)")
	f.StringSliceVar(&opts.profiles, "profile", nil, "also start the processes of this profile (repeat, or a comma list; PROCS_PROFILES adds more)")
	f.StringArrayVar(&opts.scaleArgs, "scale", nil, "run N instances of NAME: NAME=N (repeat for more), over its replicas:")
	f.BoolVar(&opts.exitOnFailure, "exit-on-failure", false, "stop everything and exit 1 at the first failure (for CI)")
	opts.jsonOut = a.addJSONFlag(cmd, jsonLines, "with -d: print {pid, log} (with --wait, the results); when procs already runs, what it did, as JSON")
	f.BoolVar(&opts.untilDown, untilDownFlag[2:], false, "stay until procs down, even once every process has ended (the background procs of -d)")
	_ = f.MarkHidden(untilDownFlag[2:])
	return cmd
}

// upForeground runs the engine in this process until Ctrl-C, SIGTERM,
// `procs down`, or until nothing runs any more.
func (a *app) upForeground(cfg *config.Config, names []string, opts upOptions) error {
	load := a.reloader(cfg)
	engine, err := compose.New(cfg, compose.Options{Only: names, Profiles: opts.profiles, Scale: opts.scale, StayUp: true, UntilDown: opts.untilDown, ExitOnFailure: opts.exitOnFailure, Load: load, AllReady: opts.endStartGC})
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
	dash := newDashboard(ctx, cfg, opts.listen, a.stderr)
	server.SetUI(dash.start)
	defer dash.close()
	if opts.ui {
		a.openDashboard(ctx, dash)
	}

	printer := compose.NewPrinter(a.stdout, cfg.Names(), a.plainOutput())
	printer.SetLogPaths(engine.LogPath)
	sub := engine.Bus().Subscribe(true)
	stopPrinter := make(chan struct{})
	printed := make(chan struct{})
	go func() { printer.Run(sub, stopPrinter); close(printed) }()

	go a.forwardSignals(ctx, engine)
	surviveBrokenOutput()
	outcome, err := engine.Run(context.Background())
	close(stopPrinter)
	<-printed
	if err != nil {
		return withCode(exitFailure, err)
	}
	return a.upExit(outcome)
}

// scaled reads --scale and returns cfg with those numbers of instances.
func (opts *upOptions) scaled(cfg *config.Config) (*config.Config, error) {
	if len(opts.scaleArgs) == 0 {
		return cfg, nil
	}
	scale, err := parseScale(opts.scaleArgs)
	if err != nil {
		return nil, fmt.Errorf("--scale %w", err)
	}
	opts.scale = scale
	return cfg.Scaled(scale)
}

// activeProfiles are the profiles procs up starts: those of --profile and
// those of PROCS_PROFILES (a comma list), checked. A --profile must be one
// of cfg's; PROCS_PROFILES, which may be set for other projects too, may
// name profiles cfg lacks.
func (a *app) activeProfiles(cfg *config.Config, flags []string) ([]string, error) {
	asked, err := config.ParseProfiles(flags...)
	if err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	if err := cfg.CheckProfiles(asked); err != nil {
		return nil, fmt.Errorf("--profile: %w", err)
	}
	active, err := config.ParseProfiles(append(flags, a.getenv("PROCS_PROFILES"))...)
	if err != nil {
		return nil, fmt.Errorf("--profile or PROCS_PROFILES: %w", err)
	}
	return active, nil
}

// upExit maps how the foreground procs ended to its exit code: 130 after
// Ctrl-C, 0 after procs down, else 1 if a process failed.
func (a *app) upExit(outcome compose.Outcome) error {
	switch {
	case outcome.Ended == compose.EndInterrupted:
		return silentExit(exitInterrupted)
	case outcome.Ended == compose.EndDown:
		return nil
	case len(outcome.Failed) > 0:
		fmt.Fprintf(a.stderr, "procs: failed: %s\n", strings.Join(outcome.Failed, ", "))
		return silentExit(exitFailure)
	}
	return nil
}

// surviveBrokenOutput keeps procs up running when the reader of its output
// ends (`procs up | head`, a killed tee, the grep of `procs up | grep`
// that Ctrl-C ended first): Go ends a program that writes to a broken
// pipe on its stdout, which would leave the processes to the watchdog's
// kill in the middle of their orderly stop. Asked for, SIGPIPE is only
// delivered, and the writes fail (the printer then writes nothing more).
// It is caught, not ignored: an ignored signal would stay ignored in the
// processes procs starts, and `yes | head` in one of them would never end.
func surviveBrokenOutput() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}

// forwardSignals turns the first Ctrl-C, SIGTERM or SIGHUP (not ignored:
// withHangup) into an orderly shutdown and a second one into killing
// everything at once.
func (a *app) forwardSignals(ctx context.Context, engine *compose.Engine) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, withHangup(os.Interrupt, syscall.SIGTERM)...)
	defer signal.Stop(sigs)
	var taken time.Time
	for {
		select {
		case <-sigs:
			if !taken.IsZero() && time.Since(taken) < sameSignal {
				continue // the same request, sent twice
			}
			taken = time.Now()
			if engine.Interrupt() != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

// sameSignal is how soon after a signal procs up takes another as the
// same request to stop in order, not the second Ctrl-C that kills at
// once: timeout(1) sends its signal to procs and then to procs' process
// group, and a wrapper may forward a Ctrl-C the terminal sent procs too.
// A person's second Ctrl-C, after reading "Ctrl-C again", comes later.
const sameSignal = 250 * time.Millisecond

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

// stdoutIsTerminal says whether standard output is a terminal.
func (a *app) stdoutIsTerminal() bool {
	f, ok := a.stdout.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
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

// openDashboard serves the dashboard at start (procs up --ui) and opens it.
func (a *app) openDashboard(ctx context.Context, dash *dashboard) {
	info, err := dash.start(ctx, control.UIRequest{})
	if err != nil {
		fmt.Fprintf(a.stderr, "procs: web dashboard: %v\n", err)
		return
	}
	fmt.Fprintf(a.stderr, "procs: web dashboard: %s\n", info.URL)
	if err := openBrowser(a.getenv("BROWSER"), info.URL, false); err != nil {
		fmt.Fprintf(a.stderr, "procs: could not open a browser (%v); open the link above\n", err)
	}
}

// reloader loads the config of a running procs again. Started on a
// Procfile found by itself (no -f, no PROCS_FILE), procs looks for its
// file again as up does on a fresh start, so the procs.yaml a user writes
// beside the Procfile (procs init, then an edit) is the one it follows.
// A file named with -f stays the one procs runs.
func (a *app) reloader(cfg *config.Config) func() (*config.Config, error) {
	chosen := config.LoadOptions{File: a.file, Environ: a.environ}.Chosen()
	if chosen || !config.IsProcfile(cfg.File) {
		return func() (*config.Config, error) {
			return config.Load(config.LoadOptions{File: cfg.File, Environ: a.environ, Set: a.set})
		}
	}
	dir := filepath.Dir(cfg.File)
	return func() (*config.Config, error) {
		return config.Load(config.LoadOptions{Dir: dir, Environ: a.environ, Set: a.set})
	}
}

// dialRunning connects to the procs already running in dir, asking it for
// no longer than timeout (--timeout): nil and no error when there is none;
// an error when one is there but does not answer (stopped), which starting
// another would not help.
func (a *app) dialRunning(dir string, timeout time.Duration) (*control.Client, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := control.DialContext(ctx, dir)
	var silent *control.NotAnsweringError
	if errors.As(err, &silent) {
		return nil, withCode(exitFailure, fmt.Errorf("%w: %w", control.ErrAlreadyRunning, err))
	}
	return c, nil
}

// upRunning is procs up on a procs already running: it applies the
// edited procs.yaml (reconcile), then starts what a reload leaves stopped
// but up asks for: with no NAME, the processes stopped on request (procs
// stop) or that the user left (a REPL's exit()), as docker compose up
// starts stopped containers; a completed task is not stopped, so it does
// not run again (up NAME... starts its names itself, stopped or not).
//
// The profiles asked for (--profile, PROCS_PROFILES) go with the reload:
// the running procs makes them active, as if it had been started with
// them, and starts what up starts of them and schedules their scheduled
// tasks (`procs up --profile e2e` must not answer that nothing changed).
func (a *app) upRunning(cfg *config.Config, names []string, opts upOptions) error {
	var stopped []string
	if len(names) == 0 {
		// Read before the reload, so that its report names them among
		// those started; a reload keeps a process stopped on request
		// stopped, even when its definition changed, and makes none.
		var err error
		if stopped, err = a.upStopped(cfg, opts, rules.ReasonStopped, rules.ReasonUserExit); err != nil {
			return err
		}
	}
	var onItsWay []string
	if opts.wait {
		var err error
		if onItsWay, err = a.upOnItsWay(cfg, names, opts); err != nil {
			return err
		}
	}
	reloadErr := a.reconcile(cfg, names, reloadOptions{scale: opts.scale, profiles: opts.profiles, wait: opts.wait, timeout: opts.timeout, jsonOut: opts.jsonOut, alsoStarting: stopped, alsoWaiting: onItsWay})
	var exit *exitError
	if reloadErr != nil && !(errors.As(reloadErr, &exit) && exit.quiet && exit.code == exitFailure) {
		return reloadErr // a config error, another file, no answer: nothing to start
	}
	// What the reload waited for failed (it said so): the others still
	// start, and the exit stays 1.
	if len(stopped) > 0 {
		if err := a.runActions(stopped, actionOptions{noWait: !opts.wait, timeout: opts.timeout, jsonOut: opts.jsonOut}, startAction); err != nil {
			return err
		}
	}
	return reloadErr
}

// upOnItsWay lists the processes of the running procs that procs up
// --wait waits for although the reload may change nothing: those still
// starting (or waiting for their dependencies) that up asks for (names,
// else the processes up starts).
func (a *app) upOnItsWay(cfg *config.Config, names []string, opts upOptions) ([]string, error) {
	list, err := a.listRunning(opts.timeout)
	if err != nil {
		return nil, err
	}
	want := names
	if len(want) == 0 {
		want = cfg.UpSet(opts.profiles)
	}
	var starting []string
	for _, st := range list {
		if onItsWay(st.State) && (slices.Contains(want, st.Name) || slices.Contains(want, st.ReplicaOf)) {
			starting = append(starting, st.Name)
		}
	}
	return starting, nil
}

// listRunning is the status of every process of the running procs,
// asked for no longer than timeout.
func (a *app) listRunning(timeout time.Duration) ([]compose.ProcStatus, error) {
	sess, err := a.connectFor(timeout)
	if err != nil {
		return nil, err
	}
	defer sess.close()
	list, err := sess.client.List(sess.ctx)
	if err != nil {
		return nil, a.clientError(err)
	}
	return list, nil
}

// upStopped lists the processes of the running procs that are stopped
// for one of reasons and that procs up starts: not disabled ones, nor
// those of a profile not asked for, nor tasks that wait for their schedule.
func (a *app) upStopped(cfg *config.Config, opts upOptions, reasons ...rules.Reason) ([]string, error) {
	list, err := a.listRunning(opts.timeout)
	if err != nil {
		return nil, err
	}
	want := cfg.UpSet(opts.profiles)
	var stopped []string
	for _, st := range list {
		if st.State == rules.StateStopped && slices.Contains(reasons, st.Reason) && slices.Contains(want, st.Name) {
			stopped = append(stopped, st.Name)
		}
	}
	return stopped, nil
}
