package compose

import (
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/lifecycle"
	"github.com/procsdev/procs/rules"
)

// procState is what the engine holds of one process beside its lifecycle:
// its detection, its current run's supervisor, its logs and its screen.
// Only the engine goroutine reads or writes it.
type procState struct {
	// life is the process's lifecycle, which only the machine writes.
	life      *lifecycle.Proc
	cfg       *config.Proc
	detect    *rules.Spec
	preset    string
	presetEnv map[string]string
	// runEnv is what the config gave the current run's environment
	// (config.Environment), env files as they were when it started.
	runEnv map[string]string
	// pty says the process runs in a pseudo-terminal.
	pty bool
	// idle is the onIdle state; nil without onIdle.
	idle *idleState
	// nextArgs are the arguments a start request gave the run to come.
	nextArgs *runArgs
	// screen is the last rows of a PTY run's screen, as of its last verdict:
	// a result shows them, where a TUI's log lines are a jumble of redraws.
	screen []string

	sup  *supervisor
	ring *rules.Ring
	logs *logFile
	// lastScreen is the last screen of the last run of a PTY process that
	// ended: it holds why.
	lastScreen *ScreenText
	// agent is the session of an agent CLI in its JSON mode, nil until
	// its first report (engine_agentjson.go).
	agent *agentState
	// asks are the permission requests of the agent waiting for an answer
	// through procs' MCP server, first asked first (engine_permission.go).
	asks []*permissionAsk
	// cpuHeld samples the run's time held at its CPU limit (resources.go).
	cpuHeld cpuHeld
}

// newProcState opens what the engine keeps of a process new to it, with
// its detection d.
func (e *Engine) newProcState(p *config.Proc, d Detection) *procState {
	limit, keep := e.logRetention(p)
	logs := newLogFile(e.opts.LogDir, p.Name, limit, keep)
	e.reportLogHealth(p.Name, logs)
	ps := definedState(p, d)
	ps.ring, ps.logs = rules.NewRing(e.opts.RingSize), logs
	return ps
}

// definedState is the definition of p with its detection d, without
// anything opened: a changed definition takes it (takeDefinition).
func definedState(p *config.Proc, d Detection) *procState {
	return &procState{cfg: p, detect: d.Spec, preset: d.presetName(), presetEnv: d.presetEnv(), pty: usesPTY(p, d.presetName())}
}

// running reports whether a run of the process is alive.
func (ps *procState) running() bool { return ps.life.Running() }

// state is the lifecycle state of the process.
func (ps *procState) state() rules.State { return ps.life.State }

// readsDeps says the process's ready rule reads its dependencies' states
// (deps.NAME): only such runs are sent them.
func (ps *procState) readsDeps() bool {
	return ps.detect != nil && ps.detect.Rule != nil && ps.detect.Rule.Deps().Uses
}
