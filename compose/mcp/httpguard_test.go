package mcp

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// serveHTTP serves a server on a loopback port with opts and returns its
// address.
func serveHTTP(t *testing.T, opts HTTPOptions) string {
	t.Helper()
	server := New(Options{Dir: t.TempDir()})
	t.Cleanup(server.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.ServeStreamableHTTP(ctx, ln, opts) }()
	t.Cleanup(func() { cancel(); <-served })
	return ln.Addr().String()
}

// post sends an initialize request with the given headers and returns the
// status and body.
func post(t *testing.T, addr string, headers map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodPost, "http://"+addr+"/", strings.NewReader(initializeBody))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func TestHTTPRefusesWhatIsNotItsOwner(t *testing.T) {
	addr := serveHTTP(t, HTTPOptions{Token: "right-token"})
	good := "Bearer right-token"
	for _, tc := range []struct {
		name    string
		headers map[string]string
		status  int
		says    string
	}{
		{"no token", map[string]string{}, http.StatusUnauthorized, "no bearer token"},
		{"wrong token", map[string]string{"Authorization": "Bearer wrong"}, http.StatusUnauthorized, "wrong bearer token"},
		{"rebound Host", map[string]string{"Authorization": good, "Host": "evil.example:80"}, http.StatusForbidden, "not a loopback address"},
		{"foreign Origin", map[string]string{"Authorization": good, "Origin": "https://evil.example"}, http.StatusForbidden, "Origin"},
		{"null Origin", map[string]string{"Authorization": good, "Origin": "null"}, http.StatusForbidden, "Origin"},
		{"foreign Origin without token", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden, "Origin"},
		{"the owner", map[string]string{"Authorization": good}, http.StatusOK, `"result"`},
		{"the owner from a local page", map[string]string{"Authorization": good, "Origin": "http://localhost:3000"}, http.StatusOK, `"result"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := post(t, addr, tc.headers)
			assert.Equal(t, tc.status, status, body)
			assert.Contains(t, body, tc.says)
		})
	}
}

func TestHTTPAllowRemoteStillNeedsTheTokenAndItsOwnOrigin(t *testing.T) {
	ip := nonLoopbackIP(t)
	server := New(Options{Dir: t.TempDir()})
	t.Cleanup(server.Close)
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- server.ServeStreamableHTTP(ctx, ln, HTTPOptions{Token: "right-token", AllowRemote: true})
	}()
	t.Cleanup(func() { cancel(); <-served })
	addr := ln.Addr().String()

	status, _ := post(t, addr, nil)
	assert.Equal(t, http.StatusUnauthorized, status)
	status, body := post(t, addr, map[string]string{"Authorization": "Bearer right-token"})
	assert.Equal(t, http.StatusOK, status, body)
	status, _ = post(t, addr, map[string]string{"Authorization": "Bearer right-token", "Origin": "https://evil.example"})
	assert.Equal(t, http.StatusForbidden, status)
}

// nonLoopbackIP is an address of this machine other programs could reach.
func nonLoopbackIP(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	require.NoError(t, err)
	for _, a := range addrs {
		if ipNet, ok := a.(*net.IPNet); ok && !ipNet.IP.IsLoopback() && ipNet.IP.To4() != nil {
			return ipNet.IP.String()
		}
	}
	testenv.Missing(t, "this machine has no network address besides loopback")
	return ""
}

func TestHTTPNeedsAToken(t *testing.T) {
	server := New(Options{Dir: t.TempDir()})
	t.Cleanup(server.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	require.Error(t, server.ServeStreamableHTTP(testCtx(t), ln, HTTPOptions{}))
}

func TestTokenFileIsPrivateAndRemoved(t *testing.T) {
	dir := t.TempDir()
	token, err := NewToken()
	require.NoError(t, err)
	assert.Len(t, token, 64)
	path, remove, err := WriteToken(dir, token)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, ".procs", TokenFile), path)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, token+"\n", string(data))
	remove()
	_, err = os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist)
}
