package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/scaffold"
)

func (a *app) initCommand() *cobra.Command {
	var force, dryRun, fromProcfile bool
	var jsonOut *jsonOutput
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a commented procs.yaml from what this folder holds, for you to review",
		Long: `Look at this folder and write procs.yaml with a process for each thing found:
package.json dev or start scripts (here, in subfolders such as web/ and api/,
and in workspaces) and its storybook script, manage.py (Django), a Gemfile with config/application.rb
or config.ru (Rails, Rack), FastAPI and Flask apps, Phoenix, Laravel, Hugo,
go.mod with a main package, the services of compose.yaml (with its override
file) and of .devcontainer/ whose images procs can run locally (Postgres,
Redis, MySQL, MariaDB, MongoDB, Memcached, nginx, RabbitMQ, NATS, MinIO), and
a Procfile. Migrations (Django, Rails, Ecto, Laravel, Alembic, Prisma) and
workspace packages built once (tsc) are tasks the processes needing them
wait for; ports come from the project's files, never twice the same. Each process says in a comment where it came from and which preset
was detected; services come first, then the APIs, then the front ends that
depend on them. With a Procfile, its lines are the apps and the other project
files are not looked at (docker-compose.yml services still are).

An existing procs.yaml is never overwritten without --force. -f FILE writes
FILE instead, for the folder it is in.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			target, err := a.initTarget()
			if err != nil {
				return err
			}
			if !dryRun && !force {
				if _, err := os.Stat(target); err == nil {
					return withCode(exitUsage, fmt.Errorf("%s already exists: review or edit it, or pass --force to overwrite it (--dry-run prints what init would write)", a.displayPath(target)))
				}
			}
			res, err := scaffold.Generate(scaffold.Options{Dir: filepath.Dir(target), FromProcfile: fromProcfile})
			if err != nil {
				return a.initError(err)
			}
			if dryRun {
				_, err := a.stdout.Write(res.YAML)
				return err
			}
			if err := writeConfig(target, res.YAML, force); err != nil {
				return withCode(exitUsage, err)
			}
			if jsonOut.on() {
				return jsonOut.print(initView{File: target, Procs: res.Procs, Skipped: res.Skipped})
			}
			a.printInit(target, res)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing procs.yaml")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the procs.yaml to stdout instead of writing it")
	cmd.Flags().BoolVar(&fromProcfile, "from-procfile", false, "convert the Procfile only, ignoring every other file")
	jsonOut = a.addJSONFlag(cmd, jsonOnce, "print what was written as JSON")
	return cmd
}

// initView is what init --json prints.
type initView struct {
	File    string             `json:"file"`
	Procs   []scaffold.Summary `json:"procs"`
	Skipped []string           `json:"skipped"`
}

// initTarget is the file init writes: -f FILE, or procs.yaml here.
func (a *app) initTarget() (string, error) {
	target := a.file
	if target == "" {
		target = filepath.Join(a.workDir(), "procs.yaml")
	}
	if config.IsProcfile(target) {
		return "", withCode(exitUsage, errors.New("-f names the procs.yaml to write, not a Procfile: to convert one, run procs init --from-procfile in its folder"))
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", withCode(exitUsage, fmt.Errorf("find %s: %w", target, err))
	}
	return abs, nil
}

// initError maps a failure of scaffold.Generate to an exit code: a broken
// Procfile or an empty folder is the user's to fix (2).
func (a *app) initError(err error) error {
	var cfgErrs config.ConfigErrors
	switch {
	case errors.As(err, &cfgErrs):
		for _, e := range cfgErrs {
			fmt.Fprintln(a.stderr, e.Error())
		}
		return &exitError{code: exitUsage, err: err, quiet: true}
	case errors.Is(err, scaffold.ErrNothingFound):
		return withCode(exitUsage, fmt.Errorf("%w: write procs.yaml by hand (procs schema describes it)", err))
	case errors.Is(err, scaffold.ErrNoProcfile):
		return withCode(exitUsage, fmt.Errorf("%w: --from-procfile converts one", err))
	}
	return withCode(exitFailure, err)
}

// writeConfig writes data to file, creating it only if it does not exist
// unless force, so that two inits never overwrite each other's file.
func writeConfig(file string, data []byte, force bool) error {
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(file, flags, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists: pass --force to overwrite it", file)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}

// printInit says what init wrote and why, then what to do next.
func (a *app) printInit(target string, res *scaffold.Result) {
	fmt.Fprintf(a.stdout, "wrote %s with %s:\n", a.displayPath(target), plural(len(res.Procs), "process", "processes"))
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	for _, p := range res.Procs {
		fmt.Fprintf(tw, "  %s\t%s\t# %s\n", p.Name, p.Command, p.Why)
	}
	tw.Flush()
	if len(res.Skipped) > 0 {
		fmt.Fprintln(a.stdout, "found but not added:")
		for _, s := range res.Skipped {
			fmt.Fprintf(a.stdout, "  %s\n", s)
		}
	}
	fmt.Fprintln(a.stdout, "review it, then run `procs check` and `procs up`")
}
