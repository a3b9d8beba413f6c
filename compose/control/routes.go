package control

import "net/http"

// route is one endpoint of the API: a ServeMux pattern and its handler.
type route struct {
	pattern string
	handler http.HandlerFunc
}

// routeTable lists every endpoint of the API, once: routes serves it, and
// routes_test.go checks that ARCHITECTURE.md §7 lists the same endpoints.
func (s *Server) routeTable() []route {
	return []route{
		{"GET /v1/info", s.handleInfo},
		{"GET /v1/config", s.handleConfig},
		{"GET /v1/procs", s.handleList},
		{"GET /v1/procs/{name}", s.handleGet},
		{"GET /v1/usage", s.handleUsage},
		{"POST /v1/procs/{name}/restart", s.handleAction(actionRestart)},
		{"POST /v1/procs/{name}/start", s.handleAction(actionStart)},
		{"POST /v1/procs/{name}/stop", s.handleAction(actionStop)},
		{"GET /v1/procs/{name}/wait", s.handleWait},
		{"GET /v1/wait", s.handleWaitMany},
		{"POST /v1/procs/{name}/input", s.handleInput},
		{"POST /v1/procs/{name}/permission", s.handlePermission},
		{"GET /v1/procs/{name}/logs", s.handleLogs},
		{"GET /v1/logs", s.handleLogs},
		{"GET /v1/events", s.handleEvents},
		{"POST /v1/down", s.handleDown},
		{"POST /v1/reload", s.handleReload},
		{"POST /v1/scale", s.handleScale},
		{"POST /v1/restart", s.handleRestartMany},
		{"GET /v1/procs/{name}/attach", s.handleAttach},
		{"GET /v1/procs/{name}/screen", s.handleScreen},
		{"POST /v1/procs/{name}/pause", s.handlePause},
		{"POST /v1/procs/{name}/resume", s.handleResume},
		{"POST /v1/ui", s.handleUI},
	}
}

// routes serves the route table; any other request is answered 404 with
// where to start.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range s.routeTable() {
		mux.HandleFunc(rt.pattern, rt.handler)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no endpoint %s %s (see GET /v1/procs)", r.Method, r.URL.Path)
	})
	return mux
}
