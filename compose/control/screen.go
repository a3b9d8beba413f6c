package control

import (
	"context"
	"net/http"
	"net/url"

	"github.com/procsdev/procs/compose/wire"
)

// handleScreen answers what a PTY process shows now; with ?styled=true,
// with its colours and cursor (wire.StyledScreen).
func (s *Server) handleScreen(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("styled") == "true" {
		st, err := s.engine.StyledScreen(r.Context(), r.PathValue("name"))
		if err != nil {
			writeEngineError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, st)
		return
	}
	st, err := s.engine.Screen(r.Context(), r.PathValue("name"))
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

// Screen returns the text on the screen of a PTY process now.
func (c *Client) Screen(ctx context.Context, name string) (wire.ScreenText, error) {
	var st wire.ScreenText
	return st, c.getJSON(ctx, http.MethodGet, procPath(name, "screen"), nil, nil, &st)
}

// StyledScreen returns what a PTY process shows now with its colours and
// cursor, for a dashboard.
func (c *Client) StyledScreen(ctx context.Context, name string) (wire.StyledScreen, error) {
	var st wire.StyledScreen
	return st, c.getJSON(ctx, http.MethodGet, procPath(name, "screen"), url.Values{"styled": {"true"}}, nil, &st)
}
