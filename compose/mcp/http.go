package mcp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/procsdev/procs/internal/connguard"
)

// ErrNotLoopback is returned (wrapped) by CheckLoopback for an address
// other programs on the network could reach.
var ErrNotLoopback = errors.New("not a loopback address")

// CheckLoopback accepts only host:port addresses that listen on the local
// machine alone (127.0.0.1, ::1, localhost): the MCP server restarts and
// stops processes and writes to them, so it must not be reachable from
// the network unless the user says so.
func CheckLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("check address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	if host == "" {
		host = "every interface"
	}
	return fmt.Errorf("%w: %q listens on %s; use 127.0.0.1:PORT, or --allow-remote to serve the network", ErrNotLoopback, addr, host)
}

// Handler returns the streamable HTTP handler of the server, one MCP
// session per client, behind the checks of opts: a loopback Host and
// Origin (unless opts.AllowRemote) and the bearer token.
func (s *Server) Handler(opts HTTPOptions) http.Handler {
	return guard(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk }, nil), opts)
}

// HTTP connection limits: anyone on the machine can connect to the port,
// so a peer without the token must not hold descriptors for long nor the
// slots of the clients that have it. Variables so tests can shorten them.
var (
	// httpHeaderTimeout bounds how long a request may take to send its headers.
	httpHeaderTimeout = 10 * time.Second
	// httpIdleTimeout closes a kept-alive connection no request came on for so long.
	httpIdleTimeout = 60 * time.Second
	// maxHTTPConns caps the open connections; beyond it, a new one evicts
	// the oldest without the token (connguard).
	maxHTTPConns = 64
)

// ServeStreamableHTTP serves the streamable HTTP transport on ln until ctx
// ends.
func (s *Server) ServeStreamableHTTP(ctx context.Context, ln net.Listener, opts HTTPOptions) error {
	if opts.Token == "" {
		return errors.New("serve MCP over HTTP: no bearer token")
	}
	// No ReadTimeout: it would end the streams of waiting tools; a request
	// without the token is answered at once and its connection closed.
	srv := &http.Server{
		Handler:           connguard.CloseUnlessSignedIn(s.Handler(opts)),
		ReadHeaderTimeout: httpHeaderTimeout,
		IdleTimeout:       httpIdleTimeout,
		ConnContext:       connguard.ConnContext,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(connguard.NewListener(ln, maxHTTPConns, 0, nil)) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve MCP over HTTP: %w", err)
	case <-ctx.Done():
		// Streams of waiting tools and notifications stay open; close them.
		_ = srv.Close()
		<-served
		return nil
	}
}
