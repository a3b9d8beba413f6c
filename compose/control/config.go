package control

import (
	"context"
	"encoding/json"
	"net/http"
)

// handleConfig returns the config the running procs was started with, as
// `procs config --json` prints it: what runs, which may differ from
// procs.yaml once the file has been edited.
func (s *Server) handleConfig(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.engine.Config())
}

// Config returns the config the running procs was started with, as JSON.
func (c *Client) Config(ctx context.Context) (json.RawMessage, error) {
	var cfg json.RawMessage
	return cfg, c.getJSON(ctx, http.MethodGet, "/v1/config", nil, nil, &cfg)
}
