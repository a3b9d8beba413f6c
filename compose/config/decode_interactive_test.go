package config

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeInteractiveSettings(t *testing.T) {
	cfg, err := Parse(filepath.Join(t.TempDir(), "procs.yaml"), []byte(`
procs:
  agent:
    command: claude
    pty: {cols: 100, rows: 30}
    busyPatterns: ['esc to interrupt']
    questionPatterns: ['Enter to select']
    permissionPatterns: ['Do you want to proceed']
    recoverablePatterns: ['rate limit']
    onIdle: {after: 30s, send: [/clear, continue with the next task], maxCycles: 3}
  repl:
    command: python3 -i
    pty: true
  pipe:
    command: cat
    pty: false
  plain:
    command: cat
`), nil)
	require.NoError(t, err)
	agent := cfg.Procs["agent"]
	assert.Equal(t, PTY{Enabled: true, Set: true, Cols: 100, Rows: 30}, agent.PTY, "a size turns the PTY on")
	assert.Equal(t, []string{"esc to interrupt"}, agent.BusyPatterns)
	assert.Equal(t, []string{"Enter to select"}, agent.QuestionPatterns)
	assert.Equal(t, []string{"Do you want to proceed"}, agent.PermissionPatterns)
	assert.Equal(t, []string{"rate limit"}, agent.RecoverablePatterns)
	assert.Equal(t, &OnIdle{After: Duration(30 * time.Second), Send: []string{"/clear", "continue with the next task"}, MaxCycles: 3}, agent.OnIdle)
	assert.Equal(t, PTY{Enabled: true, Set: true}, cfg.Procs["repl"].PTY)
	assert.Equal(t, PTY{Set: true}, cfg.Procs["pipe"].PTY, "pty: false is said, not unset")
	assert.Equal(t, PTY{}, cfg.Procs["plain"].PTY)

	for name, want := range map[string]string{"agent": `{"cols":100,"rows":30}`, "repl": `true`, "pipe": `false`} {
		data, err := json.Marshal(cfg.Procs[name].PTY)
		require.NoError(t, err)
		assert.JSONEq(t, want, string(data), name)
	}
	data, err := json.Marshal(cfg.Procs["plain"])
	require.NoError(t, err)
	assert.NotContains(t, string(data), `"pty"`, "unset pty is left out of procs config")
}
