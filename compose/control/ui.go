package control

import (
	"context"
	"net/http"
	"sync"
)

// UIInfo is the answer of POST /v1/ui: where the web dashboard listens.
type UIInfo struct {
	// URL opens the dashboard once: it carries the per-run token, which the
	// page turns into a cookie.
	URL string `json:"url"`
	// Addr is the host:port the dashboard listens on.
	Addr string `json:"addr"`
	// Note says when the request's Listen was not applied (the dashboard
	// already served elsewhere).
	Note string `json:"note,omitempty"`
}

// UIRequest is the body of POST /v1/ui.
type UIRequest struct {
	// Listen is an explicit host:port for the dashboard ("" : loopback).
	// It only applies when the dashboard is not serving yet.
	Listen string `json:"listen,omitempty"`
}

// UIStarter starts the web dashboard if it is not serving yet and says
// where it is. It is given by the program that runs the server (the
// dashboard's package depends on this one, not the other way round).
type UIStarter func(ctx context.Context, req UIRequest) (UIInfo, error)

// uiHook holds the UIStarter; requests read it while `procs up` sets it.
type uiHook struct {
	mu    sync.Mutex
	start UIStarter
}

// SetUI makes POST /v1/ui (what `procs ui` asks) call start.
func (s *Server) SetUI(start UIStarter) {
	s.ui.mu.Lock()
	defer s.ui.mu.Unlock()
	s.ui.start = start
}

// handleUI starts the dashboard (once) and answers its URL.
func (s *Server) handleUI(w http.ResponseWriter, r *http.Request) {
	s.ui.mu.Lock()
	start := s.ui.start
	s.ui.mu.Unlock()
	if start == nil {
		writeError(w, http.StatusNotImplemented, "this procs serves no web dashboard (an older procs, or one started without it)")
		return
	}
	var req UIRequest
	if r.ContentLength != 0 && !decodeBody(w, r, &req) {
		return
	}
	info, err := start(r.Context(), req)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "web dashboard: %v", err)
		return
	}
	writeJSON(w, http.StatusOK, info)
}

// UI asks the running procs to serve the web dashboard and returns where.
func (c *Client) UI(ctx context.Context, req UIRequest) (UIInfo, error) {
	var info UIInfo
	return info, c.getJSON(ctx, http.MethodPost, "/v1/ui", nil, req, &info)
}

// RoundTrip sends req to the API over the socket, whatever its URL's host,
// so a reverse proxy (the web dashboard) can pass requests through as is.
// Unlike the other methods it returns every status as a response.
func (c *Client) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	out.URL.Scheme = "http"
	out.URL.Host = "procs"
	out.Host = "procs"
	out.RequestURI = ""
	return c.http.Transport.RoundTrip(out)
}
