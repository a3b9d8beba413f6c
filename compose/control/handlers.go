package control

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// action is a lifecycle request on one process.
type action string

const (
	actionRestart action = "restart"
	actionStart   action = "start"
	actionStop    action = "stop"
)

// processStarted is when this procs started, as /v1/info tells it.
var processStarted = time.Now()

func (s *Server) handleInfo(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, Info{PID: os.Getpid(), Dir: s.ep.dir, Socket: s.ep.path, StartedAt: processStarted,
		Goroutines: runtime.NumGoroutine(), File: s.engine.Config().File})
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	list, err := s.engine.Status()
	if err != nil {
		writeEngineError(w, err)
		return
	}
	if list == nil {
		list = []wire.ProcStatus{}
	}
	if !s.measureUsage(w, r, list) {
		return
	}
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	st, err := s.engine.StatusOf(r.PathValue("name"))
	if err != nil {
		writeEngineError(w, err)
		return
	}
	one := []wire.ProcStatus{st}
	if !s.measureUsage(w, r, one) {
		return
	}
	writeJSON(w, http.StatusOK, one[0])
}

// handleAction restarts, starts or stops a process and, unless wait=false,
// waits for the new run to be ready (or stopped) and returns the result.
func (s *Server) handleAction(act action) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		wait, err := boolParam(r, "wait", true)
		if err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return
		}
		timeout, err := durationParam(r, "timeout", defaultWaitTimeout)
		if err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return
		}
		targets, err := s.actionTargets(name, act)
		if err != nil {
			writeEngineError(w, err)
			return
		}
		args, ok := startArgs(w, r, act)
		if !ok {
			return
		}
		if res, ok := s.runningUnhealthy(name, act); ok {
			writeJSON(w, http.StatusOK, res)
			return
		}
		run, err := s.do(name, act, args)
		if err != nil {
			writeEngineError(w, err)
			return
		}
		if !wait {
			s.writeRequested(w, name, act, run)
			return
		}
		s.wait(w, r, name, targets, run, timeout)
	}
}

// runningUnhealthy answers a start of a process that runs, unhealthy: a
// start leaves a running process as it is, and a wait for it to be ready
// would only time out. The answer says what is wrong, and which of its
// dependencies is not there (stopped, failed), the likely cause.
func (s *Server) runningUnhealthy(name string, act action) (rules.Result, bool) {
	if act != actionStart {
		return rules.Result{}, false
	}
	st, err := s.engine.StatusOf(name)
	if err != nil || st.State != rules.StateUnhealthy {
		return rules.Result{}, false
	}
	msg := "already running, unhealthy: " + st.Message
	if p := s.engine.Config().Procs[name]; p != nil {
		for _, dep := range p.DependsOn {
			if d, err := s.engine.StatusOf(dep.Name); err == nil && (d.State == rules.StateStopped || d.State == rules.StateFailed) {
				msg += fmt.Sprintf("; its dependency %s is %s: `procs start %s`", dep.Name, d.State, dep.Name)
			}
		}
	}
	return rules.Result{Name: name, State: st.State, Run: st.Run, Ports: st.Ports, Message: msg, Logs: []string{}}, true
}

func (s *Server) do(name string, act action, args map[string]string) (int, error) {
	switch {
	case act == actionStart && args != nil:
		return s.engine.StartArgs(name, args)
	case act == actionStart:
		return s.engine.Start(name)
	case act == actionStop:
		return s.engine.Stop(name)
	}
	return s.engine.Restart(name)
}

// actionTargets are the states that end a wait after act.
func (s *Server) actionTargets(name string, act action) ([]rules.State, error) {
	p, ok := s.engine.Config().Procs[name]
	if !ok {
		return nil, &wire.UnknownProcessError{Name: name, Known: s.engine.Config().Names()}
	}
	if act == actionStop {
		return []rules.State{rules.StateStopped}, nil
	}
	if p.IsTask() {
		return []rules.State{rules.StateReady, rules.StateCompleted}, nil
	}
	return []rules.State{rules.StateReady}, nil
}

// reachable refuses at once a wait no run of name can end: a service
// never completes (one whose program exits 0 has failed, "exited"), so
// waiting for completed alone would only time out.
func (s *Server) reachable(name string, targets []rules.State) error {
	p := s.engine.Config().Procs[name]
	if p == nil || p.IsTask() || slices.ContainsFunc(targets, func(t rules.State) bool { return t != rules.StateCompleted }) {
		return nil
	}
	return fmt.Errorf("%s is a service, and a service never completes (only a task, kind: task, does): wait --for ready, stopped or failed", name)
}

// writeRequested answers an action that was not waited for.
func (s *Server) writeRequested(w http.ResponseWriter, name string, act action, run int) {
	st, err := s.engine.StatusOf(name)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, rules.Result{
		Name: name, Success: true, State: st.State, Run: run, Ports: st.Ports,
		Message: fmt.Sprintf("%s requested", act),
	})
}

// wait blocks until name reaches a target state in run minRun or later and
// writes the structured result. The client going away ends the wait.
func (s *Server) wait(w http.ResponseWriter, r *http.Request, name string, targets []rules.State, minRun int, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	res, err := s.waitResult(ctx, name, targets, minRun)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// waitResult waits until name reaches a target state in run minRun or
// later and returns the structured result, or the engine's error when it
// has none to give.
func (s *Server) waitResult(ctx context.Context, name string, targets []rules.State, minRun int) (rules.Result, error) {
	res, err := s.engine.Wait(ctx, name, targets, minRun)
	if errors.Is(err, wire.ErrShuttingDown) {
		// procs ended (every process failed, say) before the wait began:
		// its last transition says why, not "procs is shutting down".
		last, ok := s.lastTransition(name)
		if !ok {
			return rules.Result{}, err
		}
		res = rules.Result{Name: name, State: last.To, Run: last.Run, Success: slices.Contains(targets, last.To),
			Message: transitionMessage(last) + " (procs has ended)"}
	} else if err != nil && res.Name == "" {
		return rules.Result{}, err
	}
	if res.Logs == nil {
		res.Logs = []string{}
	}
	if res.Ports == nil {
		res.Ports = []int{}
	}
	return res, nil
}

// handleWait waits for a process to reach a state: for=ready,completed
// (default ready, or completed for a task), run=N (default the current run).
func (s *Server) handleWait(w http.ResponseWriter, r *http.Request) {
	params, ok := parseWaitParams(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	targets, status, err := s.waitTargetsOf(name, params.states)
	if err != nil {
		writeStatusError(w, status, err)
		return
	}
	s.wait(w, r, name, targets, params.minRun, params.timeout)
}

// waitParams are the query parameters every wait takes.
type waitParams struct {
	states  []rules.State // asked for with for=; none: each process's default
	minRun  int
	timeout time.Duration
}

// parseWaitParams reads for=, run= and timeout=, answering 400 itself
// when one is wrong.
func parseWaitParams(w http.ResponseWriter, r *http.Request) (waitParams, bool) {
	p := waitParams{}
	var err error
	if f := r.URL.Query().Get("for"); f != "" {
		if p.states, err = parseStates(f); err != nil {
			writeError(w, http.StatusBadRequest, "%v", err)
			return p, false
		}
	}
	if v := r.URL.Query().Get("run"); v != "" {
		if p.minRun, err = strconv.Atoi(v); err != nil || p.minRun < 0 {
			writeError(w, http.StatusBadRequest, "run=%q is not a run number", v)
			return p, false
		}
	}
	if p.timeout, err = durationParam(r, "timeout", defaultWaitTimeout); err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return p, false
	}
	return p, true
}

// waitTargetsOf returns the states that end a wait for name: states when
// given (refused, 400, when no run of name can reach them), else ready, or
// ready or completed for a task. An unknown name is the engine's error.
func (s *Server) waitTargetsOf(name string, states []rules.State) ([]rules.State, int, error) {
	targets, err := s.actionTargets(name, actionStart)
	if err != nil {
		status, _ := engineErrorBody(err)
		return nil, status, err
	}
	if len(states) == 0 {
		return targets, 0, nil
	}
	if err := s.reachable(name, states); err != nil {
		return nil, http.StatusBadRequest, err
	}
	return states, 0, nil
}

func (s *Server) handleInput(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	var req InputRequest
	if !decodeBody(w, r, &req) {
		return
	}
	st, err := s.engine.StatusOf(name)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	keys, err := keysFor(name, st.PTY, req.Keys)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return
	}
	text := req.Text + keys
	if req.Enter {
		text += enterFor(st.PTY)
	}
	if err := s.engine.Input(r.Context(), name, []byte(text), req.Force); err != nil {
		writeInputError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"written": len(text)})
}

// keysFor is what the keys named write to the process name: what a
// terminal sends for each, for a process in one (pty); on a pipe, a
// newline for Enter, and tab and backspace as their bytes. A key only a
// terminal gives a meaning (Ctrl-C is SIGINT, Ctrl-D the end of input,
// Esc and the arrows are for a screen) is refused for a pipe: written as
// a byte it would do nothing, and say it was sent.
func keysFor(name string, pty bool, keys []string) (string, error) {
	var b strings.Builder
	for _, key := range keys {
		seq, err := wire.KeySequence(key)
		switch {
		case err != nil:
			return "", err
		case pty:
			b.WriteString(seq)
		case seq == "\r":
			b.WriteString(enterFor(false))
		case seq == "\t" || seq == "\x7f":
			b.WriteString(seq)
		default:
			return "", fmt.Errorf("%s means something only to a program in a terminal, and %s reads a pipe: `procs stop %s` or `procs restart %s` ends it; set pty: true to run it in a terminal",
				strings.ToLower(strings.TrimSpace(key)), name, name, name)
		}
	}
	return b.String(), nil
}

// enterFor is the Enter key: \r in a terminal, a newline on a pipe.
func enterFor(pty bool) string {
	if pty {
		return "\r"
	}
	return "\n"
}

func (s *Server) handleDown(w http.ResponseWriter, r *http.Request) {
	if err := s.engine.Down(); err != nil {
		writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, DownResult{Stopping: true})
}

// parseStates reads a comma-separated list of states.
func parseStates(list string) ([]rules.State, error) {
	var out []rules.State
	for _, part := range strings.Split(list, ",") {
		st := rules.State(strings.TrimSpace(part))
		if !slices.Contains(rules.States, st) {
			return nil, fmt.Errorf("unknown state %q: one of %s", st, strings.Join(rules.StateNames(), ", "))
		}
		out = append(out, st)
	}
	return out, nil
}

func boolParam(r *http.Request, key string, def bool) (bool, error) {
	v := r.URL.Query().Get(key)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s=%q is not true or false", key, v)
	}
	return b, nil
}

func durationParam(r *http.Request, key string, def time.Duration) (time.Duration, error) {
	v := r.URL.Query().Get(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s=%q is not a positive duration (e.g. 30s)", key, v)
	}
	return d, nil
}

// lastTransition is the last kept state event of a process.
func (s *Server) lastTransition(name string) (wire.Event, bool) {
	sub := s.engine.Bus().SubscribeSince(0, false)
	events, _ := sub.Next()
	sub.Close()
	for i := len(events) - 1; i >= 0; i-- {
		if ev := events[i]; ev.Type == wire.EventState && ev.Proc == name {
			return ev, true
		}
	}
	return wire.Event{}, false
}

// transitionMessage is the reason and message of a transition.
func transitionMessage(ev wire.Event) string {
	return ev.Reason.With(ev.Message)
}
