package control

import (
	"context"
	"net/http"

	"github.com/procsdev/procs/compose"
)

// handleScreen answers what a PTY process shows now.
func (s *Server) handleScreen(w http.ResponseWriter, r *http.Request) {
	st, err := s.engine.Screen(r.PathValue("name"))
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// Screen returns the text on the screen of a PTY process now.
func (c *Client) Screen(ctx context.Context, name string) (compose.ScreenText, error) {
	var st compose.ScreenText
	return st, c.getJSON(ctx, http.MethodGet, procPath(name, "screen"), nil, nil, &st)
}
