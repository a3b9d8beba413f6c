package compose

import (
	"testing"
	"time"

	"github.com/procsdev/procs/compose/config"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A task ends when it exits: it never takes a server preset's readyTimeout,
// which would kill a long query.
func TestDetectionOfTaskTakesNoReadyTimeout(t *testing.T) {
	task := &config.Proc{Name: "dump", Command: config.Command{Shell: "postgres --single -D db"}, Kind: config.KindTask}
	d, err := DetectionOf(task, nil)
	require.NoError(t, err)
	require.NotNil(t, d.Preset, "postgres --single still runs the postgres program")
	assert.Zero(t, d.Spec.ReadyTimeout)
	assert.Zero(t, d.Spec.AssumeReadyAfter)

	server := &config.Proc{Name: "db", Command: config.Command{Shell: "postgres -D db"}}
	d, err = DetectionOf(server, nil)
	require.NoError(t, err)
	assert.Equal(t, d.Preset.ReadyTimeout, d.Spec.ReadyTimeout)
}

// A generic runtime that prints nothing is ready by listening, with
// port: set too (a silent Python server would otherwise wait for a line).
func TestDetectionOfSilentRuntimeWithPort(t *testing.T) {
	d, err := DetectionOf(&config.Proc{Name: "api", Command: config.Command{Shell: "python3 srv.py"}, Port: 8000}, nil)
	require.NoError(t, err)
	require.NotNil(t, d.Preset)
	assert.Equal(t, "python", d.Preset.Name)
	assert.True(t, d.Spec.ReadyOnListen)
}

// A ready line that names a port (Express' "listening on port 3010") is
// checked against the process tree's ports, for a preset of a server, so
// no stability delay stands in for that check; the process's own
// stabilityDelay always holds. A worker's line may name its broker's port,
// and an agent's screen is no server: neither checks the line's port.
func TestDetectionOfReadyLinePort(t *testing.T) {
	d, err := DetectionOf(&config.Proc{Name: "web", Command: config.Command{Shell: "node app.js"}}, nil)
	require.NoError(t, err)
	require.NotNil(t, d.Preset)
	assert.True(t, d.Spec.ReadyLinePort, "express")
	assert.Zero(t, d.Spec.StabilityDelay, "the port on the line decides")

	own := config.Duration(250 * time.Millisecond)
	d, err = DetectionOf(&config.Proc{Name: "web", Command: config.Command{Shell: "node app.js"}, Port: 3000, StabilityDelay: own}, nil)
	require.NoError(t, err)
	assert.Equal(t, own.D(), d.Spec.StabilityDelay)

	for _, command := range []string{"celery -A app worker", "claude"} {
		d, err = DetectionOf(&config.Proc{Name: "w", Command: config.Command{Shell: command}}, nil)
		require.NoError(t, err)
		require.NotNil(t, d.Preset, command)
		assert.False(t, d.Spec.ReadyLinePort, command)
	}
}

// The port a run is to listen on is its port:, or the one its command
// gives the preset's program; a preset's default is no more than a guess.
func TestDetectionOfExpectedPort(t *testing.T) {
	d, err := DetectionOf(&config.Proc{Name: "db", Command: config.Command{Shell: "postgres -D data -p 5433"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, 5433, d.Spec.ExpectedPort)
	d, err = DetectionOf(&config.Proc{Name: "db", Command: config.Command{Shell: "postgres -D data"}}, nil)
	require.NoError(t, err)
	assert.Zero(t, d.Spec.ExpectedPort, "postgres's default 5432 is a guess")
	d, err = DetectionOf(&config.Proc{Name: "web", Command: config.Command{Shell: "python3 -m http.server 15080"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, 15080, d.Spec.ExpectedPort, "http.server's port is its argument")
	d, err = DetectionOf(&config.Proc{Name: "api", Command: config.Command{Shell: "python3 srv.py"}, Port: 8000}, nil)
	require.NoError(t, err)
	assert.Equal(t, 8000, d.Spec.ExpectedPort)
}
