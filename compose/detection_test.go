package compose

import (
	"testing"

	"github.com/procsdev/procs/compose/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A task ends when it exits: it never takes a server preset's readyTimeout,
// which would kill a long query.
func TestDetectionOfTaskTakesNoReadyTimeout(t *testing.T) {
	task := &config.Proc{Name: "dump", Command: config.Command{Shell: "postgres --single -D db"}, Kind: config.KindTask}
	d, err := DetectionOf(task)
	require.NoError(t, err)
	require.NotNil(t, d.Preset, "postgres --single still runs the postgres program")
	assert.Zero(t, d.Spec.ReadyTimeout)
	assert.Zero(t, d.Spec.AssumeReadyAfter)

	server := &config.Proc{Name: "db", Command: config.Command{Shell: "postgres -D db"}}
	d, err = DetectionOf(server)
	require.NoError(t, err)
	assert.Equal(t, d.Preset.ReadyTimeout, d.Spec.ReadyTimeout)
}

// A generic runtime that prints nothing is ready by listening, with
// port: set too (a silent Python server would otherwise wait for a line).
func TestDetectionOfSilentRuntimeWithPort(t *testing.T) {
	d, err := DetectionOf(&config.Proc{Name: "api", Command: config.Command{Shell: "python3 srv.py"}, Port: 8000})
	require.NoError(t, err)
	require.NotNil(t, d.Preset)
	assert.Equal(t, "python", d.Preset.Name)
	assert.True(t, d.Spec.ReadyOnListen)
}
