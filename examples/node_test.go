package examples_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The ports of examples/node (its procs.yaml).
const (
	nodeAPI = 13000
	nodeWeb = 13173
)

// helloReply is the body of the Express API's GET /api/hello.
type helloReply struct {
	Message string `json:"message"`
	PID     int    `json:"pid"`
}

// TestNode runs examples/node: an Express API and a Vite front-end, both
// `npm run dev`, ready by their presets alone. A request to Vite goes
// through its proxy to Express; after `procs restart api` a new Express
// process answers.
func TestNode(t *testing.T) {
	requireNodeModules(t, filepath.Join("node", "api"), "express")
	requireNodeModules(t, filepath.Join("node", "web"), "vite")
	p := newProject(t, "node", nodeAPI, nodeWeb)

	out := p.up()
	assert.Contains(t, out, "api ready")
	assert.Contains(t, out, "web ready")
	p.requirePresets(map[string]string{"api": "express", "web": "vite"})

	hello := fmt.Sprintf("http://127.0.0.1:%d/api/hello", nodeWeb)
	var before, after helloReply
	getJSON(t, hello, &before)
	assert.Equal(t, "hello from express", before.Message)
	assert.Contains(t, get(t, fmt.Sprintf("http://127.0.0.1:%d/", nodeWeb)), "<title>procs node example</title>")

	assert.Contains(t, p.mustProcs("restart", "api"), "api ready (run 2")
	getJSON(t, hello, &after)
	assert.Equal(t, "hello from express", after.Message)
	assert.NotEqual(t, before.PID, after.PID, "a new Express process answers after the restart")
	p.down()
}
