package control

import (
	"context"
	"net/http"

	"github.com/procsdev/procs/compose/wire"
)

// IdleResult is the answer of POST /v1/procs/{name}/pause and /resume.
type IdleResult struct {
	Name string          `json:"name"`
	Idle wire.IdleStatus `json:"idle"`
}

// handlePause pauses the onIdle actions of a process.
func (s *Server) handlePause(w http.ResponseWriter, r *http.Request) {
	s.writeIdle(w, r, s.engine.Pause)
}

// handleResume resumes the onIdle actions of a process.
func (s *Server) handleResume(w http.ResponseWriter, r *http.Request) {
	s.writeIdle(w, r, s.engine.Resume)
}

func (s *Server) writeIdle(w http.ResponseWriter, r *http.Request, act func(string) (*wire.IdleStatus, error)) {
	name := r.PathValue("name")
	st, err := act(name)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, IdleResult{Name: name, Idle: *st})
}

// Pause pauses the onIdle actions of a process.
func (c *Client) Pause(ctx context.Context, name string) (IdleResult, error) {
	var res IdleResult
	return res, c.getJSON(ctx, http.MethodPost, procPath(name, "pause"), nil, nil, &res)
}

// Resume resumes the onIdle actions of a process.
func (c *Client) Resume(ctx context.Context, name string) (IdleResult, error) {
	var res IdleResult
	return res, c.getJSON(ctx, http.MethodPost, procPath(name, "resume"), nil, nil, &res)
}
