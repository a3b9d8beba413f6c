package control

import (
	"context"

	"github.com/procsdev/procs/compose/bus"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// Engine is what the server asks of the engine it serves: one method per
// thing a route does. *compose.Engine implements it; the server never sees
// more of it, so control links none of the engine.
type Engine interface {
	// Config is the config being run.
	Config() *config.Config
	// Bus carries every state and line event.
	Bus() *bus.Bus

	// Status and StatusOf are snapshots of every process, or one.
	Status() ([]wire.ProcStatus, error)
	StatusOf(name string) (wire.ProcStatus, error)
	// MeasureUsage fills in the CPU and memory of the running processes
	// of list (GET /v1/procs?usage=true), and UsageHistory answers what
	// was measured after a measure; both count as someone looking, the
	// only time procs measures.
	MeasureUsage(ctx context.Context, list []wire.ProcStatus)
	UsageHistory(ctx context.Context, after int64) (wire.UsageHistory, error)
	// Logs returns the last n lines of a process.
	Logs(name string, n int) ([]rules.Line, error)
	// LinesNotKept is how many older lines of a process Logs no longer
	// has; LogPath is the file that has them.
	LinesNotKept(name string) (int, error)
	LogPath(name string) string
	// Wait waits until a run of name from minRun on reaches one of targets
	// or gives up, and says how it went.
	Wait(ctx context.Context, name string, targets []rules.State, minRun int) (rules.Result, error)

	// Start, Stop and Restart act on one process and return its run.
	Start(name string) (int, error)
	// StartArgs starts a task with arguments for that one run, refusing
	// bad ones (*config.ArgError) and a run going (it does not join it).
	StartArgs(name string, args map[string]string) (int, error)
	Stop(name string) (int, error)
	Restart(name string) (int, error)
	// RestartMany restarts the processes matching patterns in dependency order.
	RestartMany(patterns []string, noDeps bool) (wire.RestartPlan, error)
	// Reload reads the config again and applies it, with the number of
	// instances scale gives the processes it names, and profiles active
	// (procs up --profile), from now on.
	Reload(only []string, scale map[string]int, profiles []string) (wire.Reconciled, error)
	// Scale changes the number of instances of processes and reconciles.
	Scale(scale map[string]int) (wire.Reconciled, error)
	// Down stops every process and ends the run.
	Down() error

	// Input writes text to a process's input.
	Input(ctx context.Context, name string, text []byte, force bool) error
	// AskPermission puts an agent process in awaiting-permission with
	// what its CLI asks through procs' MCP server and waits for the answer
	// (Input answers it); ctx ending withdraws the request.
	AskPermission(ctx context.Context, name string, req wire.PermissionRequest) (wire.PermissionDecision, error)
	// Pause and Resume hold and release a process's onIdle actions.
	Pause(name string) (*wire.IdleStatus, error)
	Resume(name string) (*wire.IdleStatus, error)
	// Screen and StyledScreen are what a PTY process shows now.
	// Both give up when ctx ends (a run in its finish answers late).
	Screen(ctx context.Context, name string) (wire.ScreenText, error)
	StyledScreen(ctx context.Context, name string) (wire.StyledScreen, error)
	// Attach connects a terminal of cols×rows to a running PTY process.
	Attach(ctx context.Context, name string, cols, rows int) (*wire.Attachment, error)
}
