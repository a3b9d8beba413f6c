package control

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/wire"
	"github.com/procsdev/procs/rules"
)

// ReloadRequest is the body of POST /v1/reload: apply the config on disk
// to the running procs (procs up, procs reload).
type ReloadRequest struct {
	// Only also starts these processes and their dependencies.
	Only []string `json:"only,omitempty"`
	// Scale is the number of instances of the processes named, from now
	// on (procs up --scale NAME=N).
	Scale map[string]int `json:"scale,omitempty"`
	// Profiles become active from now on (procs up --profile), as if procs
	// had been started with them: their processes start, their scheduled
	// tasks are scheduled. None is made inactive.
	Profiles []string `json:"profiles,omitempty"`
	// Wait waits for what changed to be ready.
	Wait bool `json:"wait,omitempty"`
	// Timeout bounds the wait (default 60s).
	Timeout string `json:"timeout,omitempty"`
}

// ReloadAnswer says what a reload did and, when waited for, how the
// processes it started or restarted came up.
type ReloadAnswer struct {
	wire.Reconciled
	// Results are the results of the waits, in start order.
	Results []rules.Result `json:"results"`
}

// RestartRequest is the body of POST /v1/restart.
type RestartRequest struct {
	// Names are process names or globs; none means every process.
	Names []string `json:"names,omitempty"`
	// NoDeps keeps restart: true dependents from following.
	NoDeps bool `json:"noDeps,omitempty"`
	// NoWait returns as soon as the restarts are requested.
	NoWait bool `json:"noWait,omitempty"`
	// Timeout bounds the wait (default 60s).
	Timeout string `json:"timeout,omitempty"`
}

// RestartAnswer lists the result of every process restarted, the
// dependents that followed included, in start order.
type RestartAnswer struct {
	// Notes say what to know, such as a definition taken from the edited file.
	Notes []string `json:"notes,omitempty"`
	// Results are one per process restarted.
	Results []rules.Result `json:"results"`
}

// handleReload loads the config again and reconciles. A config error
// changes nothing and is answered with 422 and the errors, one a line.
func (s *Server) handleReload(w http.ResponseWriter, r *http.Request) {
	var req ReloadRequest
	if !decodeBody(w, r, &req) {
		return
	}
	timeout, ok := parseTimeout(w, req.Timeout)
	if !ok {
		return
	}
	rec, err := s.engine.Reload(req.Only, req.Scale, req.Profiles)
	s.writeReconciled(w, r, rec, err, req.Wait, timeout)
}

// writeReconciled answers a reload or scale: what it did and, when wait,
// the results of what it started. A config error (or a count that cannot
// run) is answered with 422 and the errors, one a line.
func (s *Server) writeReconciled(w http.ResponseWriter, r *http.Request, rec wire.Reconciled, err error, wait bool, timeout time.Duration) {
	var cfgErrs config.ConfigErrors
	var scaleErr *config.ScaleError
	switch {
	case errors.As(err, &cfgErrs), errors.As(err, &scaleErr):
		writeError(w, http.StatusUnprocessableEntity, "%v", err)
		return
	case err != nil:
		writeEngineError(w, err)
		return
	}
	answer := ReloadAnswer{Reconciled: rec, Results: []rules.Result{}}
	if wait {
		answer.Results = s.waitTargets(r.Context(), rec.Waits, timeout)
	}
	writeJSON(w, http.StatusOK, answer)
}

// handleRestartMany restarts processes by name or glob (all when none) and
// waits for them and the dependents that follow them.
func (s *Server) handleRestartMany(w http.ResponseWriter, r *http.Request) {
	var req RestartRequest
	if !decodeBody(w, r, &req) {
		return
	}
	timeout, ok := parseTimeout(w, req.Timeout)
	if !ok {
		return
	}
	plan, err := s.engine.RestartMany(req.Names, req.NoDeps)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	answer := RestartAnswer{Notes: plan.Notes, Results: []rules.Result{}}
	if req.NoWait {
		for _, t := range plan.Waits {
			answer.Results = append(answer.Results, rules.Result{Name: t.Name, Success: true, Run: t.Run, Message: "restart requested", Logs: []string{}, Ports: []int{}})
		}
	} else {
		answer.Results = s.waitTargets(r.Context(), plan.Waits, timeout)
	}
	writeJSON(w, http.StatusOK, answer)
}

func parseTimeout(w http.ResponseWriter, text string) (time.Duration, bool) {
	if text == "" {
		return defaultWaitTimeout, true
	}
	d, err := time.ParseDuration(text)
	if err != nil || d <= 0 {
		writeError(w, http.StatusBadRequest, "timeout %q is not a positive duration (e.g. 30s)", text)
		return 0, false
	}
	return d, true
}

// waitTargets waits for each target in turn, within one timeout. A target
// that follows another (restart: true) whose wait failed is not waited
// for: it is not restarted, and its result says why.
func (s *Server) waitTargets(ctx context.Context, targets []wire.WaitTarget, timeout time.Duration) []rules.Result {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	results := make([]rules.Result, 0, len(targets))
	failed := map[string]bool{}
	// Each result says how long this request waited for it, from its
	// start: the targets are waited for in turn, and a target ready while
	// an earlier one was waited for did not take 0 ms.
	began := time.Now()
	for _, t := range targets {
		var res rules.Result
		if t.After != "" && failed[t.After] {
			st, _ := s.engine.StatusOf(t.Name)
			msg := fmt.Sprintf("not restarted: %s did not come back", t.After)
			if st.Run == 0 {
				msg = fmt.Sprintf("not started: %s is not ready", t.After)
			}
			res = rules.Result{Name: t.Name, State: st.State, Run: st.Run, Ports: st.Ports, Message: msg}
		} else {
			var err error
			res, err = s.engine.Wait(ctx, t.Name, t.Targets, t.Run)
			if err != nil && res.Name == "" {
				res = rules.Result{Name: t.Name, Message: err.Error()}
			}
		}
		failed[t.Name] = !res.Success
		res.DurationMs = time.Since(began).Milliseconds()
		if res.Logs == nil {
			res.Logs = []string{}
		}
		if res.Ports == nil {
			res.Ports = []int{}
		}
		results = append(results, res)
	}
	return results
}

// Reload asks the running procs to apply the config on disk.
func (c *Client) Reload(ctx context.Context, req ReloadRequest) (ReloadAnswer, error) {
	var answer ReloadAnswer
	return answer, c.getJSON(ctx, http.MethodPost, "/v1/reload", nil, req, &answer)
}

// RestartMany restarts processes by name or glob (all when none) and
// returns the result of each, with the dependents that followed.
func (c *Client) RestartMany(ctx context.Context, req RestartRequest) (RestartAnswer, error) {
	var answer RestartAnswer
	return answer, c.getJSON(ctx, http.MethodPost, "/v1/restart", nil, req, &answer)
}
