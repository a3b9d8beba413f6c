package control

import (
	"context"
	"net/http"
)

// ScaleRequest is the body of POST /v1/scale: run this many instances of
// each process named (procs scale NAME=N...).
type ScaleRequest struct {
	// Scale is the number of instances of each process named.
	Scale map[string]int `json:"scale"`
	// Wait waits for the instances started to be ready.
	Wait bool `json:"wait,omitempty"`
	// Timeout bounds the wait (default 60s).
	Timeout string `json:"timeout,omitempty"`
}

// handleScale changes the number of instances of processes and answers
// what it started and stopped, as a reload does.
func (s *Server) handleScale(w http.ResponseWriter, r *http.Request) {
	var req ScaleRequest
	if !decodeBody(w, r, &req) {
		return
	}
	timeout, ok := parseTimeout(w, req.Timeout)
	if !ok {
		return
	}
	if len(req.Scale) == 0 {
		writeError(w, http.StatusBadRequest, "scale names no process: send {\"scale\": {\"NAME\": N}}")
		return
	}
	rec, err := s.engine.Scale(req.Scale)
	s.writeReconciled(w, r, rec, err, req.Wait, timeout)
}

// Scale asks the running procs to run this many instances of each
// process named, and answers what it started and stopped.
func (c *Client) Scale(ctx context.Context, req ScaleRequest) (ReloadAnswer, error) {
	var answer ReloadAnswer
	return answer, c.getJSON(ctx, http.MethodPost, "/v1/scale", nil, req, &answer)
}
