package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLogResource(t *testing.T) {
	c := project(t, demo)
	c.waitReady(t, "web")
	templates, err := c.session.ListResourceTemplates(testCtx(t), nil)
	require.NoError(t, err)
	require.Len(t, templates.ResourceTemplates, 1)
	assert.Equal(t, "procs://logs/{name}", templates.ResourceTemplates[0].URITemplate)

	assert.Equal(t, "starting\nready\n", c.readResource(t, "procs://logs/web"))
	_, err = c.session.ReadResource(testCtx(t), &sdk.ReadResourceParams{URI: "procs://logs/nope"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not found")
	assertResourceNotFound(t, err)
}

// assertResourceNotFound checks the JSON-RPC code of a missing resource:
// -32602 (invalid params), as SEP-2164 (final) made it in the MCP spec of
// 2026-07-28, in place of the -32002 earlier versions name.
func assertResourceNotFound(t *testing.T, err error) {
	t.Helper()
	assertResourceNotFoundCode(t, err, jsonrpc.CodeInvalidParams)
}

func assertResourceNotFoundCode(t *testing.T, err error, code int64) {
	t.Helper()
	var rpcErr *jsonrpc.Error
	require.ErrorAs(t, err, &rpcErr)
	assert.Equal(t, code, rpcErr.Code)
}

// TestSubscribeToAnUnknownResourceFails: a subscription is to something
// that exists, as a read is. It speaks 2025-11-25, where resources/subscribe
// is answered: from 2026-07-28 (SEP-2575) the SDK's client subscribes with
// a subscriptions/listen stream and does not wait for its answer, which
// carries the same error.
func TestSubscribeToAnUnknownResourceFails(t *testing.T) {
	dir := t.TempDir()
	mustStartProcs(t, dir, demo)
	c := connectVersion(t, Options{Dir: dir}, "2025-11-25")
	c.waitReady(t, "web")
	for _, uri := range []string{"procs://logs/nope", "procs://logs/", "procs://other"} {
		err := c.session.Subscribe(testCtx(t), &sdk.SubscribeParams{URI: uri})
		require.Error(t, err, uri)
		assertResourceNotFoundCode(t, err, -32002) // the code of 2025-11-25
	}
	_, err := c.session.ReadResource(testCtx(t), &sdk.ReadResourceParams{URI: "procs://logs/nope"})
	assertResourceNotFoundCode(t, err, -32002)
	require.NoError(t, c.session.Subscribe(testCtx(t), &sdk.SubscribeParams{URI: "procs://logs/web"}))
	require.NoError(t, c.session.Subscribe(testCtx(t), &sdk.SubscribeParams{URI: "procs://config"}))
}

func TestLogResourceUpdateNotifications(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		name := version
		if name == "" {
			name = "newest"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			mustStartProcs(t, dir, demo)
			c := connectVersion(t, Options{Dir: dir}, version)
			c.waitReady(t, "web", "api")
			require.NoError(t, c.session.Subscribe(testCtx(t), &sdk.SubscribeParams{URI: "procs://logs/web"}))

			// The notification is driven by the line that input makes web print.
			sent := 0
			uri := c.awaitUpdate(t, func() {
				sent++
				succeed[InputSent](t, c, "send_input", map[string]any{"name": "web", "text": fmt.Sprint("hello ", sent), "enter": true})
			})
			assert.Equal(t, "procs://logs/web", uri)
			assert.Contains(t, c.readResource(t, uri), "got hello 1\n")

			// Only subscribed logs are announced: api's restart prints lines,
			// yet every notification is about web.
			succeed[Result](t, c, "restart_process", map[string]any{"name": "api"})
			succeed[InputSent](t, c, "send_input", map[string]any{"name": "web", "text": "again", "enter": true})
			for {
				select {
				case uri := <-c.updates:
					require.Equal(t, "procs://logs/web", uri)
					if slices.Contains(strings.Split(c.readResource(t, uri), "\n"), "got again") {
						return
					}
				case <-time.After(testDeadline):
					t.Fatal("no notification for the second line")
				}
			}
		})
	}
}

// awaitUpdate calls trigger until a resources/updated notification comes
// and returns its URI. Under the newest protocol a subscription starts in
// the background (subscriptions/listen), so the first lines may come
// before it is in place; under 2025-11-25 the first trigger does it.
func (c *client) awaitUpdate(t *testing.T, trigger func()) string {
	t.Helper()
	deadline := time.After(testDeadline)
	for {
		trigger()
		select {
		case uri := <-c.updates:
			return uri
		case <-time.After(time.Second):
		case <-deadline:
			t.Fatal("no resources/updated notification")
		}
	}
}

func TestConfigResource(t *testing.T) {
	c := connect(t, Options{Dir: t.TempDir(), Config: func() ([]byte, error) {
		return json.Marshal(map[string]any{"procs": map[string]any{"web": map[string]any{"command": "echo hi"}}})
	}})
	resources, err := c.session.ListResources(testCtx(t), nil)
	require.NoError(t, err)
	require.Len(t, resources.Resources, 1)
	assert.Equal(t, "procs://config", resources.Resources[0].URI)
	// No procs runs: the folder's config answers.
	assert.JSONEq(t, `{"procs":{"web":{"command":"echo hi"}}}`, c.readResource(t, "procs://config"))
}

// With procs running, the config resource is the config it runs, and each
// process named at start is listed as a log resource.
func TestResourcesOfARunningProcs(t *testing.T) {
	dir := t.TempDir()
	mustStartProcs(t, dir, demo)
	c := connect(t, Options{Dir: dir, Names: []string{"api", "web"}, Config: func() ([]byte, error) {
		return []byte(`{"procs":{}}`), nil
	}})
	resources, err := c.session.ListResources(testCtx(t), nil)
	require.NoError(t, err)
	var uris []string
	for _, r := range resources.Resources {
		uris = append(uris, r.URI)
	}
	assert.ElementsMatch(t, []string{"procs://config", "procs://logs/api", "procs://logs/web"}, uris)

	var cfg struct {
		Procs map[string]any `json:"procs"`
	}
	require.NoError(t, json.Unmarshal([]byte(c.readResource(t, "procs://config")), &cfg))
	assert.Contains(t, cfg.Procs, "flaky", "the running procs' config, not the fallback")
	c.waitReady(t, "web")
	assert.Contains(t, c.readResource(t, "procs://logs/web"), "ready\n")
}
