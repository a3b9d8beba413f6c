//go:build unix

// Command record runs one real program and stores a capture of its output
// for the preset tests (see package recorder).
//
//	record -out DIR -server redis -scenario start -expect ready -port 27001 \
//	  -ready-line 'Ready to accept' -stop-after 1.5s -- 'redis-server --port 27001'
//
// The command runs through sh -c in a fresh temp dir, exported as $TMP;
// -setup runs there first (as root, then the dir is handed to -user).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/procsdev/procs/builtin-frameworks/internal/recorder"
)

type envFlags []string

func (e *envFlags) String() string     { return strings.Join(*e, " ") }
func (e *envFlags) Set(s string) error { *e = append(*e, s); return nil }

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func run() error {
	var (
		opts     recorder.Options
		env      envFlags
		out      = flag.String("out", "", "capture directory to write")
		server   = flag.String("server", "", "server name for meta.json")
		scenario = flag.String("scenario", "", "scenario name for meta.json")
		expect   = flag.String("expect", "ready", "what really happens: ready, error, hang or not-ready")
		notes    = flag.String("notes", "", "notes for meta.json")
		setup    = flag.String("setup", "", "shell run in $TMP before the command")
		ready    = flag.String("ready-line", "", "regex for the line a person calls ready")
		signal   = flag.String("signal", "INT", "stop signal: INT, TERM, or KILL (a kill from outside: kill -9, the OOM killer)")
	)
	flag.BoolVar(&opts.PTY, "pty", false, "run on a pseudo-terminal")
	flag.StringVar(&opts.User, "user", "", "run as this user")
	flag.IntVar(&opts.Port, "port", 0, "port to probe")
	flag.BoolVar(&opts.Occupy, "occupy", false, "hold -port before starting (port-in-use runs)")
	flag.DurationVar(&opts.StopAfter, "stop-after", 0, "signal the group this long after ready")
	flag.DurationVar(&opts.Timeout, "timeout", 20*time.Second, "stop a program that does not exit")
	flag.Var(&env, "env", "extra KEY=VALUE (repeatable)")
	flag.IntVar(&opts.MaxBytes, "max-bytes", 64<<10, "record at most this much output")
	var steps envFlags
	flag.Var(&steps, "step", "with -pty: answer terminal queries and type TEXT once the screen matches REGEX: [DELAY:]REGEX=>TEXT (repeatable)")
	terminal := flag.Bool("terminal", false, "with -pty: answer terminal queries like a terminal (implied by -step)")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		return fmt.Errorf("usage: record -out DIR [flags] -- COMMAND")
	}
	opts.Command = flag.Arg(0)
	if opts.PTY && (*terminal || len(steps) > 0) {
		var err error
		if opts.Terminal, err = terminalOf(steps); err != nil {
			return err
		}
	}
	opts.Signal = map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM, "KILL": syscall.SIGKILL}[*signal]
	if *ready != "" {
		re, err := regexp.Compile(*ready)
		if err != nil {
			return fmt.Errorf("-ready-line: %w", err)
		}
		opts.ReadyLine = re
	}
	tmp, err := os.MkdirTemp("", "procs-capture-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := prepareDir(tmp, *setup, opts.User); err != nil {
		return err
	}
	opts.Dir = tmp
	opts.Env = append(env, "TMP="+tmp)
	// A port-in-use run's port is held by the recorder itself, and a
	// program that names the holder may say where it works (react-scripts:
	// its command line "in" its directory): the recorder works from /, so
	// that no machine's path lands in a capture.
	outDir, err := filepath.Abs(*out)
	if err != nil {
		return err
	}
	if err := os.Chdir("/"); err != nil {
		return err
	}
	res, err := recorder.Run(context.Background(), opts)
	if err != nil {
		return err
	}
	meta := recorder.NewMeta(*server, *scenario, opts, res)
	meta.Expect, meta.Notes = *expect, *notes
	// The capture names $TMP, not the throwaway path.
	opts.Env = env
	fmt.Fprintf(os.Stderr, "record: %s/%s exit=%v signal=%v ready=%q bytes=%d\n", *server, *scenario,
		deref(res.ExitCode), res.ExitSignal, res.ReadyLine, meta.Bytes)
	if opts.Terminal != nil {
		for i, screen := range opts.Terminal.Screens {
			fmt.Fprintf(os.Stderr, "--- screen %d ---\n%s\n", i+1, screen)
		}
	}
	return recorder.Write(outDir, opts, res, meta, *setup)
}

// terminalOf is the terminal a -pty program runs on, with the -step
// answers it types.
func terminalOf(steps []string) (*recorder.Terminal, error) {
	t := &recorder.Terminal{Cols: 120, Rows: 40}
	for _, s := range steps {
		st, err := recorder.ParseStep(s)
		if err != nil {
			return nil, err
		}
		t.Steps = append(t.Steps, st)
	}
	return t, nil
}

// prepareDir runs the setup shell in the capture's throwaway folder tmp,
// then gives the folder to user (when the program runs as another user).
func prepareDir(tmp, setup, user string) error {
	if setup != "" {
		sh := exec.Command("sh", "-c", setup)
		sh.Dir, sh.Env = tmp, append(os.Environ(), "TMP="+tmp)
		sh.Stdout, sh.Stderr = os.Stderr, os.Stderr
		if err := sh.Run(); err != nil {
			return fmt.Errorf("setup: %w", err)
		}
	}
	if user == "" {
		return nil
	}
	return chownTree(tmp, user)
}

func deref(p *int) string {
	if p == nil {
		return "none"
	}
	return strconv.Itoa(*p)
}

func chownTree(dir, name string) error {
	u, err := user.Lookup(name)
	if err != nil {
		return err
	}
	return exec.Command("chown", "-R", u.Uid+":"+u.Gid, dir).Run()
}
