package lifecycle

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/rules"
)

// ErrShuttingDown is returned for requests that arrive while procs stops.
var ErrShuttingDown = errors.New("procs is shutting down")

// Start starts a stopped, failed or completed process (and lets a blocked
// one wait for its dependencies again). It returns the run to wait for.
func (m *Machine) Start(name string) (int, error) {
	defer m.settle()
	ps, err := m.Lookup(name)
	if err != nil {
		return 0, err
	}
	if m.shuttingDown {
		return 0, ErrShuttingDown
	}
	m.want(ps)
	if ps.running || ps.intent.backoff {
		return ps.Run, nil
	}
	// A start asked for is a new attempt: its policy counts its failures
	// from none (procs run of a task that gave up last time retries).
	ps.intent.restarts = 0
	m.setState(ps, pending, rules.ReasonStart, "start requested")
	return ps.Run + 1, nil
}

// Stop stops a process; it is not restarted by its policy. It returns the
// run it stops. A task that completed has no run to stop: it keeps its
// state, which says how its last run ended (procs stop with no names
// stops every process), and is not started again until asked.
func (m *Machine) Stop(name string) (int, error) {
	defer m.settle()
	ps, err := m.Lookup(name)
	if err != nil {
		return 0, err
	}
	if ps.State == completed && !ps.running {
		m.cancelRestart(ps)
		return ps.Run, nil
	}
	m.stopForGood(ps, "stop requested")
	return ps.Run, nil
}

// Target is a run of a process that a caller may wait for after a
// reconcile or a restart.
type Target struct {
	Name string
	// Run is the first run that counts.
	Run int
	// States end the wait with success.
	States []rules.State
	// After names the process whose restart this one follows (restart:
	// true); if that one fails, this one is not restarted.
	After string
}

// Restart restarts the processes named (in start order), each stopping
// its whole run first; unless noDeps, the dependents declaring restart:
// true follow each one once it is ready. It returns the runs to wait for:
// the processes named and the dependents that follow them.
func (m *Machine) Restart(names []string, noDeps bool) ([]Target, error) {
	defer m.settle()
	for _, name := range names {
		if _, err := m.Lookup(name); err != nil {
			return nil, err
		}
	}
	if m.shuttingDown {
		return nil, ErrShuttingDown
	}
	if err := m.restartBlocked(names); err != nil {
		return nil, err
	}
	targets := m.restartTargets(names, noDeps)
	for _, name := range m.order {
		if slices.Contains(names, name) {
			m.restartAsked(m.procs[name], noDeps)
		}
	}
	return targets, nil
}

// BlockedError refuses the restart of a running process whose new run
// could not start: a dependency has failed or stopped for good since its
// run began, and the request does not restart that one too. The run that
// serves now is left as it is, rather than stopped for nothing.
type BlockedError struct {
	// Name is the process not restarted; Dep the dependency in the way,
	// and Why what is wrong with it ("failed: exit code 1").
	Name, Dep, Why string
}

func (e *BlockedError) Error() string {
	then := ""
	if strings.HasPrefix(e.Why, "failed") {
		then = "fix " + e.Dep + ", then "
	}
	return fmt.Sprintf("%s not restarted: %s %s, so its new run could not start; it runs on as it is: %s`procs start %s` (or `procs restart %s %s`)",
		e.Name, e.Dep, e.Why, then, e.Dep, e.Dep, e.Name)
}

// restartBlocked returns a *BlockedError for the first running process of
// names whose new run a dependency outside names would block.
func (m *Machine) restartBlocked(names []string) error {
	for _, name := range names {
		ps := m.procs[name]
		if !ps.running {
			continue // nothing to keep: it starts, or says it is blocked
		}
		for _, dep := range ps.Cfg.DependsOn {
			d := m.procs[dep.Name]
			if d == nil || slices.Contains(names, dep.Name) || ConditionMet(d, dep.Condition) {
				continue
			}
			if why := depBlocks(d, dep.Condition); why != "" {
				return &BlockedError{Name: name, Dep: dep.Name, Why: why}
			}
		}
	}
	return nil
}

// Match resolves names and globs (worker-*) to process names in start
// order; no pattern means every process.
func (m *Machine) Match(patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		return slices.Clone(m.order), nil
	}
	var names []string
	for _, pattern := range patterns {
		found := false
		for _, name := range m.order {
			if config.NameMatches(pattern, name, m.procs[name].Cfg.Replica.Of) {
				found = true
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
		}
		if !found {
			_, err := m.Lookup(pattern)
			return nil, err
		}
	}
	slices.SortFunc(names, func(a, b string) int { return slices.Index(m.order, a) - slices.Index(m.order, b) })
	return names, nil
}

// Submitted makes an interactive process that was waiting for input busy
// at once, when input with Enter is sent: a wait for ready issued as soon
// as the send returns must wait for the answer, not see the prompt that
// was there before. Detection confirms it (same state and reason, no
// second event) and later reports the answer.
func (m *Machine) Submitted(name string) {
	defer m.settle()
	if ps := m.procs[name]; ps != nil && AcceptsInput(ps.State) {
		m.setState(ps, busy, rules.ReasonInput, "input sent, waiting for the program to answer")
	}
}

// AcceptsInput reports whether an interactive process in state st takes
// text: at its prompt, or at a question or dialog.
func AcceptsInput(st rules.State) bool {
	switch st {
	case ready, input, perm:
		return true
	}
	return false
}

// FileChanged restarts a process because a watched file changed, as procs
// restart does, and returns the run to wait for; ok is false when the
// process does not run that definition or is not wanted.
func (m *Machine) FileChanged(name, file string) (run int, ok bool) {
	defer m.settle()
	ps := m.procs[name]
	if ps == nil || m.shuttingDown || !ps.intent.wanted {
		return 0, false
	}
	m.info(ps, rules.ReasonWatch, fmt.Sprintf("%s changed; restarting", file))
	return m.requestRestart(ps), true
}

// restartTargets lists what to wait for after restarting names: each
// one's next run and, unless noDeps, the next run of every dependent that
// will follow it (restart: true, running or blocked now), transitively.
func (m *Machine) restartTargets(names []string, noDeps bool) []Target {
	restarting := map[string]string{}
	var out []Target
	for _, name := range m.order {
		ps := m.procs[name]
		if slices.Contains(names, name) {
			restarting[name] = ""
			out = append(out, m.target(ps, ps.Run+1, ""))
			continue
		}
		if noDeps || !(ps.running || ps.State == blocked) {
			continue
		}
		for _, dep := range ps.Cfg.DependsOn {
			if _, ok := restarting[dep.Name]; ok && dep.Restart {
				restarting[name] = dep.Name
				out = append(out, m.target(ps, ps.Run+1, dep.Name))
				break
			}
		}
	}
	return out
}

// target is the wait for run of ps: ready, or completed for a task.
func (m *Machine) target(ps *Proc, run int, after string) Target {
	states := []rules.State{ready}
	if ps.Cfg.IsTask() {
		states = append(states, completed)
	}
	return Target{Name: ps.Cfg.Name, Run: run, States: states, After: after}
}

// TargetOf is the wait for run of a process.
func (m *Machine) TargetOf(name string, run int) (Target, error) {
	ps, err := m.Lookup(name)
	if err != nil {
		return Target{}, err
	}
	return m.target(ps, run, ""), nil
}
