package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/compose/mcp"
)

// mcpOptions are the flags of `procs mcp`.
type mcpOptions struct {
	httpAddr    string
	allowRemote bool
	start       bool
}

// mcpStartTimeout bounds starting procs for --start and the up tool's
// wait for its API (not for the processes to be ready).
const mcpStartTimeout = 2 * time.Minute

func (a *app) mcpCommand() *cobra.Command {
	var opts mcpOptions
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve procs to AI agents over MCP (stdio; --http for streamable HTTP)",
		Long: `Serve the control surface of the procs running in this folder as an MCP
server for AI coding agents: tools to list, restart (waiting until ready),
start, stop and wait for processes, read their logs, send them input, and
start or stop the whole project; each process's log and the resolved config
as resources. Each task of procs.yaml is a tool too, run_NAME, whose input
schema is the task's args: calling it runs the task and returns its exit
code and last lines (the tools are those of the config when procs mcp
starts).

By default it speaks MCP on stdin/stdout, for clients that spawn it
(claude mcp add procs -- procs mcp). --http ADDR serves streamable HTTP at
http://ADDR/ instead, on a loopback address unless --allow-remote; every
request needs the bearer token printed at start (also in .procs/mcp-token,
readable by you only, new for each run), and a Host or Origin that is not
loopback is refused.
With --start, a procs is started in the background (as procs up -d) when
none runs; without it, tools say to call the up tool.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.serveMCP(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.httpAddr, "http", "", "serve streamable HTTP on this address (e.g. 127.0.0.1:8931) instead of stdio")
	f.BoolVar(&opts.allowRemote, "allow-remote", false, "with --http, allow an address reachable from other machines")
	f.BoolVar(&opts.start, "start", false, "start procs in the background when none runs in this folder")
	return cmd
}

func (a *app) serveMCP(opts mcpOptions) error {
	if opts.httpAddr != "" && !opts.allowRemote {
		if err := mcp.CheckLoopback(opts.httpAddr); err != nil {
			return withCode(exitUsage, err)
		}
	}
	dir := a.projectDir()
	names, tasks := a.processNames(dir)
	// An agent CLI procs runs starts this server with its environment:
	// its permission requests (permission_prompt) are that process's.
	agentRun, _ := strconv.Atoi(a.getenv("PROCS_RUN"))
	server := mcp.New(mcp.Options{Dir: dir, Version: version(), Start: a.mcpStarter(dir), Config: a.configJSON(dir), Names: names, Tasks: tasks,
		Agent: a.getenv("PROCS_NAME"), AgentRun: agentRun})
	defer server.Close()
	ctx, stop := signalContext()
	defer stop()
	if opts.start {
		a.startIfNone(ctx, dir)
	}
	if opts.httpAddr != "" {
		return a.serveMCPHTTP(ctx, server, dir, opts)
	}
	err := server.Run(ctx, &mcp.StdioTransport{Reader: a.stdin, Writer: a.stdout})
	if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil // the client closed stdin, or Ctrl-C
	}
	return withCode(exitFailure, fmt.Errorf("serve MCP: %w", err))
}

// serveMCPHTTP serves streamable HTTP with a bearer token made for this
// run, kept in .procs/mcp-token (0600) and printed with the URL.
func (a *app) serveMCPHTTP(ctx context.Context, server *mcp.Server, dir string, opts mcpOptions) error {
	token, err := mcp.NewToken()
	if err != nil {
		return withCode(exitFailure, err)
	}
	tokenPath, removeToken, err := mcp.WriteToken(dir, token)
	if err != nil {
		return withCode(exitFailure, err)
	}
	defer removeToken()
	ln, err := net.Listen("tcp", opts.httpAddr)
	if err != nil {
		return withCode(exitFailure, fmt.Errorf("listen on %s: %w", opts.httpAddr, err))
	}
	if opts.allowRemote {
		fmt.Fprintf(a.stderr, "procs mcp: WARNING: --allow-remote: %s may be reachable from other machines, and whoever has the token can restart, stop and type into this project's processes\n", ln.Addr())
	}
	fmt.Fprintf(a.stderr, "procs mcp: serving MCP (streamable HTTP) at http://%s/ for %s\n", ln.Addr(), dir)
	fmt.Fprintf(a.stderr, "procs mcp: every request needs the header  Authorization: Bearer %s\n", token)
	fmt.Fprintf(a.stderr, "procs mcp: (the token of this run is also in %s, readable by you only)\n", relPath(tokenPath))
	return withCode(exitFailure, server.ServeStreamableHTTP(ctx, ln, mcp.HTTPOptions{Token: token, AllowRemote: opts.allowRemote}))
}

// startIfNone starts procs in the background when none answers in dir. A
// failure is reported on stderr and the server still runs: its tools then
// say no procs runs, and the up tool retries and shows why it fails.
func (a *app) startIfNone(ctx context.Context, dir string) {
	if c, err := control.Dial(dir); err == nil {
		c.Close()
		return
	}
	ctx, cancel := context.WithTimeout(ctx, mcpStartTimeout)
	defer cancel()
	if err := a.mcpStarter(dir)(ctx); err != nil {
		fmt.Fprintf(a.stderr, "procs mcp: could not start procs: %v\n", err)
	}
}

// mcpStarter starts procs detached in dir as `procs up -d` does, with the
// global flags of this command, and returns once its API answers.
func (a *app) mcpStarter(dir string) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		args := []string{"up"}
		if a.file != "" {
			file, err := filepath.Abs(a.file)
			if err != nil {
				return fmt.Errorf("find %s: %w", a.file, err)
			}
			args = append(args, "--file", file)
		}
		for _, set := range a.set {
			args = append(args, "--set", set)
		}
		_, err := spawnBackground(ctx, procsLogPath(dir), a.environ, dir, args)
		return err
	}
}

// processNames lists the processes of dir's config, for the log resources
// procs mcp lists, and its tasks, each a tool; none when the config does
// not load (the tools say why).
func (a *app) processNames(dir string) ([]string, []*config.Proc) {
	cfg, err := config.Load(config.LoadOptions{File: a.file, Dir: dir, Environ: a.environ, Set: a.set})
	if err != nil {
		return nil, nil
	}
	var tasks []*config.Proc
	for _, name := range cfg.Names() {
		if p := cfg.Procs[name]; p.IsTask() {
			tasks = append(tasks, p)
		}
	}
	return cfg.Names(), tasks
}

// configJSON returns the resolved config of dir as `procs config --json`
// prints it, for the procs://config resource.
func (a *app) configJSON(dir string) func() ([]byte, error) {
	return func() ([]byte, error) {
		cfg, err := config.Load(config.LoadOptions{File: a.file, Dir: dir, Environ: a.environ, Set: a.set})
		if err != nil {
			return nil, err
		}
		data, err := json.MarshalIndent(cfg, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encode config: %w", err)
		}
		return data, nil
	}
}
