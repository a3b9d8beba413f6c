package lifecycle

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// Options tunes a Machine as the engine's options do.
type Options struct {
	// StayUp keeps the machine unsettled while a process could still be
	// started or restarted (procs up in the foreground).
	StayUp bool
	// UntilDown keeps it unsettled until Down (the background procs).
	UntilDown bool
	// ExitOnFailure begins shutdown at the first failure.
	ExitOnFailure bool
	// Profiles are the active profiles: a process not started because
	// none of its profiles is active says so. A reconcile may add to
	// them (Up.Profiles), never take one away.
	Profiles []string
	// Clock tells the time; time.Now when nil.
	Clock func() time.Time
}

// Machine holds the lifecycle of every process of a config. It is not
// safe for concurrent use: the engine loop is its one owner.
type Machine struct {
	opts  Options
	now   func() time.Time
	procs map[string]*Proc
	order []string
	// inOrder is procs in order, for the loops every input runs (schedule):
	// made again after the config or the set of processes changes
	// (procsInOrder), where a lookup by name per process and per input
	// was the machine's main cost in a start of two hundred.
	inOrder []*Proc
	// dependents is the reverse dependency graph of the config.
	dependents map[string][]string
	// file names the config file in messages ("removed from procs.yaml").
	file string

	shuttingDown bool
	killAll      bool
	endReason    string
	firstFailure string
	// stopQueue holds, once shutdown has begun, the processes still
	// running in reverse start order (see advanceShutdown).
	stopQueue []stopEntry

	// scheduled names the processes whose schedule the engine has armed.
	scheduled map[string]bool

	waiters []*waiter
	// ended is how each process removed from the config ended, for a wait
	// on that end asked after it: a reload's waits are asked in turn, and
	// a scale's removed instances stop side by side.
	ended   map[string]Proc
	effects []Effect
	// refused counts the illegal edges asked of setState (the tests
	// require none).
	refused []Edge
}

// Proc is the lifecycle of one process. Only the machine writes it; the
// engine reads it between inputs (status, results).
type Proc struct {
	Cfg *config.Proc
	// Interactive marks a process classified by its screen (an agent, a
	// shell, a REPL): an error on its screen leaves it running, and the
	// same state again is not news (an agent session's report is: see
	// Verdict).
	Interactive bool

	State   rules.State
	Reason  rules.Reason
	Message string
	// Line is the line that decided the last verdict.
	Line  string
	Since time.Time
	// Recoverable marks a failed state the program recovers from itself.
	Recoverable bool

	Run       int
	PID       int
	StartedAt time.Time
	// ReadyAt is the first ready of the current run.
	ReadyAt time.Time
	// WaitedFor is the dependency the current run waited for: the last to
	// be there while it was pending; "" for a run that started at once.
	WaitedFor string
	Ports     []int
	ExitCode  *int
	// TotalRestarts counts every restart, for status.
	TotalRestarts int

	running bool
	intent  intent
}

// Running reports whether a run of the process is alive.
func (p *Proc) Running() bool { return p.running }

// Wanted reports whether the process should be running (false once
// stopped by request, disabled, or not named to procs up NAME...).
func (p *Proc) Wanted() bool { return p.intent.wanted }

// InBackoff reports whether the restart policy's timer is armed.
func (p *Proc) InBackoff() bool { return p.intent.backoff }

// ReadyThisRun reports whether the current run has been ready.
func (p *Proc) ReadyThisRun() bool { return p.ReadyAt.After(p.StartedAt) }

// New makes the machine of cfg, whose processes start in order; wanted
// names the processes procs up should start (the others are stopped,
// "not started" or "disabled"). interactive names the processes
// classified by their screen.
func New(cfg *config.Config, order []string, wanted, interactive map[string]bool, opts Options) *Machine {
	m := &Machine{opts: opts, now: opts.Clock, procs: map[string]*Proc{}, scheduled: map[string]bool{}, ended: map[string]Proc{}}
	if m.now == nil {
		m.now = time.Now
	}
	m.useConfig(cfg, order)
	for _, name := range order {
		m.procs[name] = m.newProc(cfg.Procs[name], wanted[name], interactive[name])
	}
	return m
}

func (m *Machine) newProc(p *config.Proc, wanted, interactive bool) *Proc {
	ps := &Proc{Cfg: p, Interactive: interactive, State: pending, Since: m.now()}
	ps.intent.wanted = wanted
	if !wanted {
		ps.State, ps.Reason = stopped, rules.ReasonNotStarted
		switch {
		case p.Disabled:
			ps.Reason = rules.ReasonDisabled
		case !p.ActiveIn(m.opts.Profiles):
			ps.Reason, ps.Message = rules.ReasonProfile, inactiveMessage(p.Profiles)
		}
	}
	return ps
}

// inactiveMessage says why a process of profiles did not start, and how
// to start it: "inactive (e2e): procs up --profile e2e".
func inactiveMessage(profiles []string) string {
	return fmt.Sprintf("inactive (%s): procs up --profile %s", strings.Join(profiles, ", "), profiles[0])
}

// useConfig makes cfg, started in order, the config the machine runs.
func (m *Machine) useConfig(cfg *config.Config, order []string) {
	m.order, m.dependents, m.file = order, cfg.DependentsGraph(), cfg.FileName()
	m.inOrder = nil
}

// procsInOrder returns the processes of the config in start order.
func (m *Machine) procsInOrder() []*Proc {
	if m.inOrder == nil {
		m.inOrder = make([]*Proc, len(m.order))
		for i, name := range m.order {
			m.inOrder[i] = m.procs[name]
		}
	}
	return m.inOrder
}

// Order returns the names of the processes in start order.
func (m *Machine) Order() []string { return m.order }

// Removed says the process was removed from the config and its last run
// is still ending; the machine forgets it once it has.
func (p *Proc) Removed() bool { return p.intent.removed }

// Names returns every process the machine holds: those of the config in
// start order, then those removed from it whose last run is still ending
// (listed as stopping until it has: they may hold a port meanwhile).
func (m *Machine) Names() []string {
	names := slices.Clone(m.order)
	var removed []string
	for name := range m.procs {
		if !slices.Contains(m.order, name) {
			removed = append(removed, name)
		}
	}
	slices.Sort(removed)
	return append(names, removed...)
}

// Dependents returns the processes of the config that depend on name.
func (m *Machine) Dependents(name string) []string { return m.dependents[name] }

// Proc returns the lifecycle of a process, or nil when there is none.
func (m *Machine) Proc(name string) *Proc { return m.procs[name] }

// Lookup returns the lifecycle of a process, or config.ErrUnknownProcess.
// Every name from outside (a request, a wait) goes through it. A process
// removed from the config is unknown, even while its last run ends.
func (m *Machine) Lookup(name string) (*Proc, error) {
	ps, ok := m.procs[name]
	if !ok || ps.intent.removed {
		return nil, &config.UnknownProcessError{Name: name, Known: slices.Clone(m.order)}
	}
	return ps, nil
}

// ShuttingDown reports whether Down (or a signal) has begun the shutdown.
func (m *Machine) ShuttingDown() bool { return m.shuttingDown }

// Effects returns the effects decided since the last call, in order.
func (m *Machine) Effects() []Effect {
	out := m.effects
	m.effects = nil
	return out
}

// Refused returns the illegal edges asked of the machine so far: none,
// unless the machine has a bug.
func (m *Machine) Refused() []Edge { return slices.Clone(m.refused) }

func (m *Machine) emit(e Effect) { m.effects = append(m.effects, e) }

func (m *Machine) info(ps *Proc, reason rules.Reason, message string) {
	m.emit(Info{Name: ps.Cfg.Name, Run: ps.Run, Reason: reason, Message: message})
}

// setState moves a process to a new state and publishes the transition.
// Setting the same state again with the same reason and message publishes
// nothing; an edge not in Transitions is refused.
func (m *Machine) setState(ps *Proc, to rules.State, reason rules.Reason, message string) {
	from := ps.State
	if from == to && ps.Reason == reason && ps.Message == message {
		return
	}
	if !Legal(from, to) {
		m.refused = append(m.refused, Edge{from, to})
		return
	}
	ps.State, ps.Reason, ps.Message, ps.Since = to, reason, message, m.now()
	// ReadyAt is the first ready of the run: an agent goes back and forth
	// between busy and ready, and "ready in" means the start-up.
	if to == ready && from != ready && from != unhealthy && !ps.ReadyThisRun() {
		ps.ReadyAt = ps.Since
	}
	if to != failed {
		ps.Recoverable = false
	}
	t := Transition{
		Name: ps.Cfg.Name, Run: ps.Run, From: from, To: to, Reason: reason, Message: message,
		Time: ps.Since, Recoverable: to == failed && ps.Recoverable,
	}
	if to == ready {
		t.DurationMs = ps.ReadyAt.Sub(ps.StartedAt).Milliseconds()
	}
	m.emit(t)
}

// settle does what every input may have made due: shutdown on the first
// failure, starting what may start, answering waits that are over.
func (m *Machine) settle() {
	m.exitOnFailure()
	if !m.shuttingDown {
		m.advanceAwaitedRestarts()
	}
	m.schedule()
	m.resolveWaiters()
}

// Begin starts what may start: the first input of a machine.
func (m *Machine) Begin() { m.settle() }
