package rules

import (
	"time"

	"github.com/procsdev/procs/rules/agentstream"
)

// Spec is what a process's config says about detecting its readiness and
// failure. It is built once at config load and shared by every run.
type Spec struct {
	ReadyPatterns, ErrorPatterns, NotReadyPatterns []Pattern
	// ReloadPatterns are the lines with which a dev server's reloader
	// starts the app again after a change ("Restarting with stat");
	// RecoveredPatterns are lines that show it serving again, which bring
	// an unhealthy run back to ready only when no error line has come since
	// the last reload line (flask prints " * Debugger is active!" after a
	// reload that failed as well as after one that worked).
	ReloadPatterns, RecoveredPatterns []Pattern
	// Rule is the compiled `ready` expression; nil when none.
	Rule *Rule
	// Port is the configured port; 0 when none.
	Port int
	// ExpectedPort is the port the run should listen on: Port, else the
	// one its preset reads in its command (python3 -m http.server 8000,
	// postgres -p 5433); 0 when unknown. A failure that says an address
	// is in use without naming it names who holds this one.
	ExpectedPort int
	// ReadyTimeout fails a run not ready in time; 0 means wait forever.
	ReadyTimeout time.Duration
	// StabilityDelay is how long the ready condition must hold without an
	// error line before the run is ready; 0 means at once.
	StabilityDelay time.Duration
	// Task marks a one-shot process: exit 0 is completed, not a failure.
	Task bool
	// ReadyOnListen makes a TCP port the process tree listens on count as
	// ready, as a ready line does: for servers that print nothing when
	// ready, and runtimes whose servers may not say so.
	ReadyOnListen bool
	// ReadyLinePort makes a ready line that names a port (a URL's, as in
	// "Uvicorn running on http://127.0.0.1:8000", or "listening on port
	// 3010", "on :8080": linePortForms) wait for the process tree to listen
	// on that port, and keeps such a run from being assumed ready: some
	// servers say so before their worker accepts, and an Express 5 app
	// says so when its bind failed. A configured Port is waited for in any
	// case.
	ReadyLinePort bool
	// ReadyLineListens makes a ready line that names no port wait for the
	// process tree to listen on a TCP port: for servers that say they
	// started before they bind (NestJS), whose failed bind comes after
	// the line.
	ReadyLineListens bool
	// AssumeReadyAfter, when set and ReadyTimeout is not, makes a run still
	// starting after it, without an error, ready with reason "assumed": for
	// generic runtimes (go run, node app.js) that may run a worker, which
	// never listens nor says it is ready.
	AssumeReadyAfter time.Duration
	// PortInUse answers the rule's portOpen(n); nil means the PortInUse of
	// this package (reads /proc). Tests replace it to stay pure.
	PortInUse func(port int) bool
	// Interactive marks a program driven through its terminal (an agent
	// CLI, a shell, a REPL): with a screen attached, its state comes from
	// the screen (classifyScreen), not from the lines.
	Interactive bool
	// Agent holds the interactive patterns beyond ready/error/not-ready.
	Agent AgentSpec
	// ReadyProbe is a preset's probe of its own server (a redis PING, an
	// HTTP /health, pg_isready), nil when none: once the process tree
	// listens on ProbePort, the run is ready only when the latest result of
	// this probe is OK. The engine runs it from then on (see ProbeGate).
	ReadyProbe *ProbeSpec
	// ProbePort is the port ReadyProbe asks.
	ProbePort int
	// Healthcheck is the healthcheck of procs.yaml, nil when none: the
	// run is ready only once its latest result is OK, whatever else says
	// ready (a line, a port, running a while), as docker compose's
	// service_healthy and the exports hold it. The engine runs it (and,
	// once ready, counts its failures); it replaces ReadyProbe.
	Healthcheck *ProbeSpec
	// AgentProtocol, when set, is the JSON mode of the agent CLI the run
	// is: its state comes from the protocol's events (agentjson.go).
	AgentProtocol agentstream.Protocol
	// AgentInput says that agent CLI reads its prompts on stdin, a session
	// procs send writes to, rather than running the one prompt of its
	// command line (agentstream.Protocol.ReadsPrompts).
	AgentInput bool
}
