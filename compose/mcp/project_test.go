package mcp

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

const twoServers = `
procs:
  web:
    command: echo ready; sleep 300
    readyPatterns: [ready]
  api:
    command: echo api ready; sleep 300
    readyPatterns: [ready]
    dependsOn: [web]
`

func TestNoProcsRunningSaysHowToStartIt(t *testing.T) {
	dir := t.TempDir()
	c := connect(t, Options{Dir: dir})
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"list_processes", nil},
		{"get_process", map[string]any{"name": "web"}},
		{"restart_process", map[string]any{"name": "web"}},
		{"wait_for_ready", map[string]any{"name": "web"}},
		{"get_logs", nil},
		{"send_input", map[string]any{"name": "web", "text": "x"}},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			res, msg := fail(t, c, tc.tool, tc.args)
			assert.Nil(t, res.StructuredContent)
			assert.Contains(t, msg, "No procs is running in "+dir)
			assert.Contains(t, msg, "Next: call the up tool")
			assert.Contains(t, msg, "procs up -d")
		})
	}
	_, msg := fail(t, c, "up", nil)
	assert.Contains(t, msg, "cannot start one")
	assert.Contains(t, msg, "procs up -d")

	down := succeed[DownResult](t, c, "down", nil)
	assert.True(t, down.Stopped)
	assert.Contains(t, down.Message, "nothing to stop")
}

func TestUpStartsProcsAndDownStopsIt(t *testing.T) {
	dir := t.TempDir()
	c := connect(t, Options{Dir: dir, Start: func(context.Context) error {
		_, err := startProcs(t, dir, twoServers)
		return err
	}})
	fail(t, c, "list_processes", nil)

	up := succeed[UpResult](t, c, "up", nil)
	assert.True(t, up.Started)
	assert.NotZero(t, up.PID)
	assert.Contains(t, up.Message, "every process is ready")
	require.Len(t, up.Processes, 2)
	for _, res := range up.Processes {
		assert.True(t, res.Success, "%s: %s", res.Name, res.Message)
	}
	list := succeed[ProcessList](t, c, "list_processes", nil)
	assert.Len(t, list.Processes, 2)

	again := succeed[UpResult](t, c, "up", map[string]any{"wait": false})
	assert.False(t, again.Started, "a running procs is left as it is")
	assert.Contains(t, again.Message, "was already running")

	down := succeed[DownResult](t, c, "down", nil)
	assert.True(t, down.Stopped)
	_, msg := fail(t, c, "list_processes", nil)
	assert.Contains(t, msg, "No procs is running")
}

func TestUpReportsTheProcessesThatFail(t *testing.T) {
	dir := t.TempDir()
	c := connect(t, Options{Dir: dir, Start: func(context.Context) error {
		_, err := startProcs(t, dir, `
procs:
  web:
    command: echo ready; sleep 300
    readyPatterns: [ready]
  broken:
    command: 'echo compiling; echo "Error: Cannot find module server.js"; sleep 300'
    readyPatterns: [listening]
    errorPatterns: ['Error:']
`)
		return err
	}})
	res, msg := fail(t, c, "up", nil)
	up := structured[UpResult](t, res)
	assert.True(t, up.Started)
	assert.Contains(t, up.Message, "not ready: broken")
	require.Len(t, up.Processes, 2)
	for _, p := range up.Processes {
		if p.Name == "broken" {
			assert.Equal(t, rules.StateFailed, p.State)
		}
	}
	assert.Contains(t, msg, "broken is failed (run 1)")
	assert.Contains(t, msg, "  | Error: Cannot find module server.js")
}

func TestUpThatCannotStartProcsSaysWhy(t *testing.T) {
	c := connect(t, Options{Dir: t.TempDir(), Start: func(context.Context) error {
		return errors.New("procs exited at start:\n  | procs.yaml:3:5: procs.web.comand: unknown key (did you mean \"command\"?)")
	}})
	_, msg := fail(t, c, "up", nil)
	assert.Contains(t, msg, "Could not start procs")
	assert.Contains(t, msg, "did you mean")
	assert.Contains(t, msg, "Next: fix what the lines above say")
}
