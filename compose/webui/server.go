// Package webui is the web dashboard of `procs ui`: a page that shows every
// process, its state, logs and terminal live, and restarts, stops, starts
// and types into them. It talks to procs only through the control API (the
// same one the CLI uses), served on a loopback TCP port behind a per-run
// token.
//
// It is a client of the API and imports compose/control alone, never the engine.
package webui

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/procsdev/procs/compose/control"
	"github.com/procsdev/procs/internal/connguard"
)

//go:embed static
var staticFiles embed.FS

// Options says where the dashboard listens.
type Options struct {
	// Listen is an explicit host:port; "" listens on 127.0.0.1. A host
	// other than loopback exposes the dashboard (token still required) to
	// the network: the caller warns.
	Listen string
	// Port is the port on 127.0.0.1 when Listen is "" (0: the port of the
	// last run if free, else any free one).
	Port int
	// StateDir keeps the port across restarts of procs, so that an open
	// page finds the new procs and says it must be opened again ("" keeps
	// nothing). The token is never kept: it is new with every run.
	StateDir string
}

// Server is a running dashboard.
type Server struct {
	http   *http.Server
	addr   string
	url    string
	served chan struct{}
	once   sync.Once
}

// Connection limits: anyone on the machine can connect to the port, so a
// peer without the token must not hold descriptors for long nor the slots
// of the page. Variables so tests can shorten them.
var (
	// readHeaderTimeout bounds how long a request may take to send its headers.
	readHeaderTimeout = 10 * time.Second
	// idleTimeout closes a kept-alive connection no request came on for so long.
	idleTimeout = 60 * time.Second
	// maxConns caps the open connections; beyond it, a new one evicts the
	// oldest not signed in (connguard). A browser opens six per host.
	maxConns = 128
)

// Start listens and serves the dashboard of the procs client talks to,
// until ctx ends or Close is called.
func Start(ctx context.Context, client *control.Client, opts Options) (*Server, error) {
	// A new token for every run of procs: a link or a page of an earlier
	// run does not sign in to this one.
	token, err := newToken()
	if err != nil {
		return nil, fmt.Errorf("web dashboard token: %w", err)
	}
	ln, hosts, err := listen(opts, loadState(opts.StateDir).Port)
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	saveState(opts.StateDir, uiState{Port: port})
	g := &guard{token: token, cookie: "procs_ui_" + strconv.Itoa(port), hosts: hosts}
	s := &Server{addr: ln.Addr().String(), served: make(chan struct{})}
	s.url = fmt.Sprintf("http://%s/?token=%s", urlHost(ln, opts.Listen), token)
	s.http = &http.Server{
		Handler:           connguard.CloseUnlessSignedIn(securityHeaders(g.wrap(routes(client)))),
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ConnContext:       connguard.ConnContext,
	}
	// No ReadTimeout: it would end the page's log streams; a request
	// without the token is answered at once and its connection closed.
	guarded := connguard.NewListener(ln, maxConns, 0, nil)
	go func() {
		defer close(s.served)
		_ = s.http.Serve(guarded)
	}()
	go func() {
		select {
		case <-ctx.Done():
			s.Close()
		case <-s.served:
		}
	}()
	return s, nil
}

// listen opens the dashboard's port and says which Host names it answers.
func listen(opts Options, lastPort int) (net.Listener, map[string]bool, error) {
	if opts.Listen != "" {
		ln, err := net.Listen("tcp", opts.Listen)
		if err != nil {
			return nil, nil, fmt.Errorf("listen on %s: %w", opts.Listen, syscallError(err))
		}
		host, _, _ := net.SplitHostPort(opts.Listen)
		if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
			return ln, nil, nil // every address: any name may reach it
		}
		hosts := loopbackHosts()
		hosts[strings.ToLower(strings.Trim(host, "[]"))] = true
		return ln, hosts, nil
	}
	port := opts.Port
	if port == 0 && lastPort != 0 {
		if ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(lastPort))); err == nil {
			return ln, loopbackHosts(), nil
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, nil, fmt.Errorf("listen on 127.0.0.1:%d: %w (set another ui.port in procs.yaml, or 0 for any free one)", port, syscallError(err))
	}
	return ln, loopbackHosts(), nil
}

// syscallError keeps the last part of a listen error ("bind: address
// already in use"), the address being said already.
func syscallError(err error) error {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		return opErr.Err
	}
	return err
}

// urlHost is the host:port to print in the URL.
func urlHost(ln net.Listener, listenFlag string) string {
	addr := ln.Addr().(*net.TCPAddr)
	if addr.IP.IsUnspecified() || addr.IP.IsLoopback() {
		return net.JoinHostPort("127.0.0.1", strconv.Itoa(addr.Port))
	}
	return addr.String()
}

// URL opens the dashboard; it carries the token.
func (s *Server) URL() string { return s.url }

// Addr is the host:port the dashboard listens on.
func (s *Server) Addr() string { return s.addr }

// Close stops serving and ends open streams.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		err = s.http.Close()
		<-s.served
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
	})
	return err
}

// routes serves the page, its log stream, and the control API through.
func routes(client *control.Client) http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFiles, "static")
	files := http.FileServerFS(static)
	mux.Handle("GET /static/", http.StripPrefix("/static/", files))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(w, r, static, "index.html")
	})
	// Browsers ask for /favicon.ico whatever the page links: the same
	// embedded SVG answers, so no request goes unanswered or off the machine.
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/svg+xml")
		http.ServeFileFS(w, r, static, "favicon.svg")
	})
	mux.Handle("GET /ui/logs", logStream{client: client})
	mux.Handle("GET /ui/screen", screenView{client: client})
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.Header.Del("Cookie")
			pr.Out.Header.Del("Origin")
		},
		Transport:     client,
		FlushInterval: -1,
	}
	mux.Handle("GET /v1/", proxy)
	mux.Handle("POST /v1/procs/{name}/{action}", proxy)
	// The page's restart-all and down buttons (down asks first, in the page).
	mux.Handle("POST /v1/restart", proxy)
	mux.Handle("POST /v1/down", proxy)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		refuse(w, http.StatusNotFound, "procs ui: no page %s %s", r.Method, r.URL.Path)
	})
	return mux
}

// securityHeaders keeps the page from being framed, from loading anything
// but its own files, and its token-bearing address from leaking as a referrer.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}
