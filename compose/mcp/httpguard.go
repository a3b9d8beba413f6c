package mcp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/procsdev/procs/internal/connguard"
	"github.com/procsdev/procs/internal/statedir"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// HTTPOptions secure the streamable HTTP transport.
type HTTPOptions struct {
	// Token is the bearer token every request must carry (required).
	Token string
	// AllowRemote accepts any Host header, for a server the user chose to
	// expose to the network; an Origin other than the server's own is
	// still refused.
	AllowRemote bool
}

// TokenFile is where `procs mcp --http` keeps the bearer token of its run,
// inside the project's .procs folder, readable by its owner only.
const TokenFile = "mcp-token"

// NewToken returns a fresh random bearer token.
func NewToken() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make MCP token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// WriteToken stores token in dir/.procs/mcp-token, mode 0600, and returns
// its path and a function that removes it (if it still holds this token).
func WriteToken(dir, token string) (path string, remove func(), err error) {
	stateDir, err := statedir.Ensure(dir)
	if err != nil {
		return "", nil, fmt.Errorf("store MCP token: %w", err)
	}
	path = filepath.Join(stateDir, TokenFile)
	// Replace, never rewrite in place: a file another user planted keeps
	// its mode, a new one gets ours.
	tmp, err := os.CreateTemp(stateDir, TokenFile+".*")
	if err != nil {
		return "", nil, fmt.Errorf("store MCP token: %w", err)
	}
	_, werr := tmp.WriteString(token + "\n")
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), 0o600), os.Rename(tmp.Name(), path)); err != nil {
		_ = os.Remove(tmp.Name())
		return "", nil, fmt.Errorf("store MCP token: %w", err)
	}
	return path, func() {
		if data, err := os.ReadFile(path); err == nil && strings.TrimSpace(string(data)) == token {
			_ = os.Remove(path)
		}
	}, nil
}

// guard wraps the MCP handler: a Host or Origin that is not loopback is
// refused (403) against DNS rebinding and cross-origin pages, then a
// request without the bearer token (401).
func guard(next http.Handler, opts HTTPOptions) http.Handler {
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if opts.Token == "" || subtle.ConstantTimeCompare([]byte(token), []byte(opts.Token)) != 1 {
			return nil, fmt.Errorf("%w: wrong bearer token (see .procs/%s)", auth.ErrInvalidToken, TokenFile)
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(24 * time.Hour)}, nil
	}
	authed := auth.RequireBearerToken(verify, nil)(signedIn(next))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !opts.AllowRemote && !loopbackHost(r.Host) {
			http.Error(w, fmt.Sprintf("Forbidden: Host %q is not a loopback address", r.Host), http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !allowedOrigin(origin, r.Host, opts.AllowRemote) {
			http.Error(w, fmt.Sprintf("Forbidden: Origin %q may not call this server", origin), http.StatusForbidden)
			return
		}
		authed.ServeHTTP(w, r)
	})
}

// signedIn keeps the connection of a request that carried the token open
// and in its slot.
func signedIn(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		connguard.SignIn(w, r)
		next.ServeHTTP(w, r)
	})
}

// loopbackHost reports whether a Host header (host or host:port) names
// this machine only.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// allowedOrigin accepts an Origin on a loopback host, or, with
// allowRemote, the server's own origin.
func allowedOrigin(origin, host string, allowRemote bool) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if loopbackHost(u.Host) {
		return true
	}
	return allowRemote && strings.EqualFold(u.Host, host)
}
