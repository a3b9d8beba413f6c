package mcp

import (
	"context"
	"net"
	"net/http"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr     string
		loopback bool
	}{
		{"127.0.0.1:8931", true},
		{"127.0.0.2:8931", true},
		{"localhost:0", true},
		{"[::1]:8931", true},
		{":8931", false},
		{"0.0.0.0:8931", false},
		{"[::]:8931", false},
		{"192.168.1.5:8931", false},
		{"example.com:8931", false},
	} {
		t.Run(tc.addr, func(t *testing.T) {
			err := CheckLoopback(tc.addr)
			if tc.loopback {
				assert.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrNotLoopback)
			assert.Contains(t, err.Error(), "--allow-remote")
		})
	}
	err := CheckLoopback("8931")
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrNotLoopback)
}

func TestStreamableHTTP(t *testing.T) {
	dir := t.TempDir()
	mustStartProcs(t, dir, twoServers)
	server := New(Options{Dir: dir})
	t.Cleanup(server.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- server.ServeStreamableHTTP(ctx, ln, HTTPOptions{Token: "secret"}) }()

	client := sdk.NewClient(&sdk.Implementation{Name: "procs-test", Version: "0"}, nil)
	session, err := client.Connect(testCtx(t), &sdk.StreamableClientTransport{
		Endpoint:   "http://" + ln.Addr().String(),
		HTTPClient: &http.Client{Transport: bearer{"secret"}},
	}, nil)
	require.NoError(t, err)
	res, err := session.CallTool(testCtx(t), &sdk.CallToolParams{Name: "restart_process", Arguments: map[string]any{"name": "web"}})
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	out := structured[Result](t, res)
	assert.Equal(t, 2, out.Run)
	require.NoError(t, session.Close())

	cancel()
	require.NoError(t, <-served)
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
