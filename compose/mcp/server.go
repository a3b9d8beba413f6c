// Package mcp serves the procs control plane to AI agents over the Model
// Context Protocol (ARCHITECTURE.md §7): tools to list, restart, start, stop and wait
// for processes, read their logs and send them input, and resources for
// each process's recent log and the resolved config. It is a client of the
// control API of the procs running in the project folder, so every answer
// comes from the engine itself and carries the structured result of ARCHITECTURE.md §4.
//
// It is a client of the API: it reaches a running procs only through compose/control's client, and
// imports compose and rules for their exported types and errors alone, never to run an engine.
package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/compose/config"
)

// Options configure a Server.
type Options struct {
	// Dir is the project folder whose procs the server talks to.
	Dir string
	// Version is reported to clients as the server's version.
	Version string
	// Start starts procs detached in Dir and returns once its API answers.
	// The up tool uses it; when nil, up says to run `procs up -d` instead.
	Start func(ctx context.Context) error
	// Config returns the resolved config of the folder as JSON, for
	// procs://config when no procs runs (a running procs answers with the
	// config it runs); when nil, only a running procs can answer.
	Config func() ([]byte, error)
	// Names lists the processes of the folder's config, each offered as a
	// log resource in resources/list (the template serves any name).
	Names []string
	// Tasks are the tasks of the folder's config, each offered as a tool
	// run_NAME that runs it with its args: and waits for it to end.
	Tasks []*config.Proc
	// Agent and AgentRun are the process and run that started this server
	// (PROCS_NAME and PROCS_RUN in its environment: an agent CLI procs
	// runs starts its MCP servers with its own environment), whose
	// permission requests permission_prompt asks, a tool offered only
	// then; "" when none did.
	Agent    string
	AgentRun int
}

// Server is the MCP server of one project folder. It serves any number of
// sessions (one over stdio, or many over streamable HTTP).
type Server struct {
	opts Options
	sdk  *sdk.Server
	logs *logWatch
}

// instructions tell a model how the tools fit together.
const instructions = `procs runs this project's processes (dev servers, databases, workers, tasks) as declared in procs.yaml, and knows when each is ready.
After editing code, call restart_process: it returns once the new run is ready, or says why it failed (error line, timeout, crash, port held by another program) with the last log lines.
Use list_processes for an overview, get_logs to read output, wait_for_ready after starting something, and up / down for the whole project.
Each task of procs.yaml (tests, builds, migrations...) is a tool run_NAME: call it, with the arguments its schema lists, to run the task without a shell; it returns the exit code and the last lines.
Failed results carry isError and end with what to do next.`

// New returns a server for the project folder of opts, with every tool
// and resource registered. Close it to stop its background work.
func New(opts Options) *Server {
	s := &Server{opts: opts}
	s.logs = newLogWatch(s.dial, s.notifyLogUpdated)
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "procs", Title: "procs", Version: opts.Version}, &sdk.ServerOptions{
		Instructions:       instructions,
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.logs.unsubscribe,
	})
	s.sdk.AddReceivingMiddleware(nullArguments)
	s.addStatusTools()
	s.addLifecycleTools()
	s.addIOTools()
	s.addProjectTools()
	s.addTaskTools()
	if opts.Agent != "" {
		// Only the agent's own server offers it: a model has no use for it.
		s.addPermissionTool()
	}
	s.addResources()
	return s
}

// SDK returns the underlying SDK server, to connect transports to.
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Run serves one session on transport (stdio for `procs mcp`) until the
// client goes away or ctx ends.
func (s *Server) Run(ctx context.Context, transport sdk.Transport) error {
	return s.sdk.Run(ctx, transport)
}

// Close stops the background work of the server (following logs for
// subscribers) and waits for it to end.
func (s *Server) Close() { s.logs.close() }
