package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
	"github.com/procsdev/procs/compose/control"
)

// testDeadline is the generous bound of every wait in these tests: the
// machine may be busy with other test runs.
const testDeadline = 30 * time.Second

// testCtx returns a context bounded by the test deadline.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), testDeadline)
	t.Cleanup(cancel)
	return ctx
}

// runningProcs is a real engine served by a real control server, as
// `procs up` runs them: when the engine ends (down), the server closes.
type runningProcs struct {
	engine *compose.Engine
	ran    chan struct{} // closed once the engine has ended and the server closed
}

// startProcs runs yamlText as procs.yaml of dir. It returns errors rather
// than failing the test, so the up tool can call it from its goroutine;
// cleanup stops it when the test ends.
func startProcs(t testing.TB, dir, yamlText string) (*runningProcs, error) {
	file := filepath.Join(dir, "procs.yaml")
	if err := os.WriteFile(file, []byte(yamlText), 0o644); err != nil {
		return nil, err
	}
	cfg, err := config.Parse(file, []byte(yamlText), os.Environ())
	if err != nil {
		return nil, err
	}
	cfg.Dir = dir
	e, err := compose.New(cfg, compose.Options{NoWatchdog: true, LogDir: t.TempDir()})
	if err != nil {
		return nil, err
	}
	server, err := control.Serve(context.Background(), e, dir)
	if err != nil {
		return nil, err
	}
	p := &runningProcs{engine: e, ran: make(chan struct{})}
	go func() {
		defer close(p.ran)
		_, _ = e.Run(context.Background())
		_ = server.Close()
	}()
	t.Cleanup(func() {
		_ = e.Down()
		select {
		case <-p.ran:
		case <-time.After(testDeadline):
			t.Error("procs did not stop")
		}
	})
	return p, nil
}

// mustStartProcs is startProcs for the test goroutine.
func mustStartProcs(t testing.TB, dir, yamlText string) *runningProcs {
	t.Helper()
	p, err := startProcs(t, dir, yamlText)
	require.NoError(t, err)
	return p
}

// client is an MCP client session connected in memory to a Server.
type client struct {
	session *sdk.ClientSession
	// updates receives the URI of every resources/updated notification.
	updates chan string
}

// connect starts an MCP server with opts and connects a client to it,
// speaking the newest protocol version both support.
func connect(t testing.TB, opts Options) *client {
	t.Helper()
	return connectVersion(t, opts, "")
}

// connectVersion is connect with the client proposing protocolVersion.
func connectVersion(t testing.TB, opts Options, protocolVersion string) *client {
	t.Helper()
	server := New(opts)
	c := &client{updates: make(chan string, 1024)}
	sdkClient := sdk.NewClient(&sdk.Implementation{Name: "procs-test", Version: "0"}, &sdk.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *sdk.ResourceUpdatedNotificationRequest) {
			select {
			case c.updates <- req.Params.URI:
			default: // the test reads only the first few
			}
		},
	})
	serverEnd, clientEnd := sdk.NewInMemoryTransports()
	serverSession, err := server.SDK().Connect(testCtx(t), serverEnd, nil)
	require.NoError(t, err)
	c.session, err = sdkClient.Connect(testCtx(t), clientEnd, &sdk.ClientSessionOptions{ProtocolVersion: protocolVersion})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = c.session.Close()
		_ = serverSession.Wait()
		server.Close()
	})
	return c
}

// project is a procs running yamlText in a new folder, with an MCP client
// of it.
func project(t testing.TB, yamlText string) *client {
	t.Helper()
	dir := t.TempDir()
	mustStartProcs(t, dir, yamlText)
	return connect(t, Options{Dir: dir, Version: "test"})
}

// call calls a tool, failing the test on a protocol error: ordinary
// failures must come back as results with IsError.
func (c *client) call(t testing.TB, tool string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := c.session.CallTool(testCtx(t), &sdk.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err, "%s must not fail at the protocol level", tool)
	return res
}

// succeed calls a tool that must succeed and decodes its structured output.
func succeed[Out any](t testing.TB, c *client, tool string, args map[string]any) Out {
	t.Helper()
	res := c.call(t, tool, args)
	require.False(t, res.IsError, "%s failed: %s", tool, text(res))
	return structured[Out](t, res)
}

// fail calls a tool that must fail and returns the text the model reads.
func fail(t testing.TB, c *client, tool string, args map[string]any) (*sdk.CallToolResult, string) {
	t.Helper()
	res := c.call(t, tool, args)
	require.True(t, res.IsError, "%s should have failed: %s", tool, text(res))
	return res, text(res)
}

// structured decodes the structured content of a result.
func structured[Out any](t testing.TB, res *sdk.CallToolResult) Out {
	t.Helper()
	var out Out
	require.NotNil(t, res.StructuredContent, "no structured content: %s", text(res))
	data, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &out), "%s", data)
	return out
}

// text joins the text content of a result.
func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		} else {
			parts = append(parts, fmt.Sprintf("%T", c))
		}
	}
	return strings.Join(parts, "\n")
}

// readResource reads a text resource.
func (c *client) readResource(t testing.TB, uri string) string {
	t.Helper()
	res, err := c.session.ReadResource(testCtx(t), &sdk.ReadResourceParams{URI: uri})
	require.NoError(t, err)
	require.Len(t, res.Contents, 1)
	return res.Contents[0].Text
}
