package control

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

const argsProject = `
procs:
  keep:
    command: exec sleep 300
  greet:
    kind: task
    disabled: true
    command: echo "hello $WHO"; echo {{args.who}} x{{args.times}}
    args:
      - {name: who, default: world}
      - {name: times, type: integer, default: 1}
  wait:
    kind: task
    disabled: true
    command: exec sleep 300
    args: [{name: label}]
`

// TestStartWithArgs: the start route takes a task's arguments in its body
// for that run; the next start without them has the defaults; bad ones
// are 400 and a run with arguments does not join a run going (409).
func TestStartWithArgs(t *testing.T) {
	h := startHarness(t, argsProject)
	c := h.client

	res, err := c.Start(testCtx(t), "greet", ActionOptions{Args: map[string]string{"who": "$(touch pwned) 'x'", "times": "2"}, Timeout: testDeadline})
	require.NoError(t, err)
	assert.Equal(t, rules.StateCompleted, res.State, res.Message)
	assert.Equal(t, []string{"hello $(touch pwned) 'x'", "$(touch pwned) 'x' x2"}, res.Logs)
	assert.NoFileExists(t, filepath.Join(h.dir, "pwned"))

	res, err = c.Start(testCtx(t), "greet", ActionOptions{Timeout: testDeadline})
	require.NoError(t, err)
	assert.Equal(t, 2, res.Run)
	assert.Equal(t, []string{"hello world", "world x1"}, res.Logs)

	_, err = c.Start(testCtx(t), "greet", ActionOptions{Args: map[string]string{"times": "two"}})
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.Status)
	assert.Equal(t, `run greet: argument times must be an integer, got "two"`, apiErr.Message)

	_, err = c.Start(testCtx(t), "wait", ActionOptions{Args: map[string]string{"label": "a"}, NoWait: true})
	require.NoError(t, err)
	_, err = c.Start(testCtx(t), "wait", ActionOptions{Args: map[string]string{}, NoWait: true})
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusConflict, apiErr.Status)
	assert.Contains(t, apiErr.Message, "wait is busy: run 1 is")

	status, body := h.raw(t, http.MethodPost, "/v1/procs/wait/start?wait=false", "application/json", strings.NewReader(`{"args": {"label": 3}}`))
	assert.Equal(t, http.StatusBadRequest, status, body)
	status, body = h.raw(t, http.MethodPost, "/v1/procs/wait/start?wait=false", "application/json", strings.NewReader(`{"argz": {}}`))
	assert.Equal(t, http.StatusBadRequest, status, body)
	assert.Contains(t, body, `unknown field \"argz\"`)
}
