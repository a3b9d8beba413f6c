package control

import (
	"context"
	"net/http"
	"strconv"

	"github.com/procsdev/procs/compose/wire"
)

// measureUsage fills in the usage of list when the request asks for it
// (usage=true): measuring may take a quarter of a second, which the
// commands that only want states must not wait for. It answers 400 and
// false for a bad value.
func (s *Server) measureUsage(w http.ResponseWriter, r *http.Request, list []wire.ProcStatus) bool {
	want, err := boolParam(r, "usage", false)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%v", err)
		return false
	}
	if want {
		s.engine.MeasureUsage(r.Context(), list)
	}
	return true
}

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

// ListUsage is List with what each running process uses (CPU, memory),
// measured now unless procs measured it a moment ago.
func (c *Client) ListUsage(ctx context.Context) ([]wire.ProcStatus, error) {
	var list []wire.ProcStatus
	return list, c.getJSON(ctx, http.MethodGet, "/v1/procs?usage=true", nil, nil, &list)
}

// GetUsage is Get with what the process uses, as ListUsage.
func (c *Client) GetUsage(ctx context.Context, name string) (wire.ProcStatus, error) {
	var st wire.ProcStatus
	return st, c.getJSON(ctx, http.MethodGet, procPath(name, "")+"?usage=true", nil, nil, &st)
}

// UsageHistory returns the usage measured after the measure numbered
// after (0: all procs keeps, the last five minutes).
func (c *Client) UsageHistory(ctx context.Context, after int64) (wire.UsageHistory, error) {
	var h wire.UsageHistory
	err := c.getJSON(ctx, http.MethodGet, "/v1/usage?after="+strconv.FormatInt(after, 10), nil, nil, &h)
	return h, err
}
