package control

import (
	"context"
	"net/http"
	"strconv"

	"github.com/procsdev/procs/compose/wire"
)

func (s *Server) handleUsage(w http.ResponseWriter, r *http.Request) {
	after := int64(0)
	if v := r.URL.Query().Get("after"); v != "" {
		var err error
		if after, err = strconv.ParseInt(v, 10, 64); err != nil || after < 0 {
			writeError(w, http.StatusBadRequest, "after=%q is not a measure number (the seq of an earlier answer)", v)
			return
		}
	}
	h, err := s.engine.UsageHistory(r.Context(), after)
	if err != nil {
		writeEngineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, h)
}

// UsageHistory returns the usage measured after the measure numbered
// after (0: all procs keeps, the last five minutes).
func (c *Client) UsageHistory(ctx context.Context, after int64) (wire.UsageHistory, error) {
	var h wire.UsageHistory
	err := c.getJSON(ctx, http.MethodGet, "/v1/usage?after="+strconv.FormatInt(after, 10), nil, nil, &h)
	return h, err
}
