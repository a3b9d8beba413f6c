package config

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOnIdleOnProcessesIdleAtAPrompt: every way to be idle at a prompt
// takes onIdle (the refusals are in testdata/broken/onidle_not_interactive).
func TestOnIdleOnProcessesIdleAtAPrompt(t *testing.T) {
	const file = "testdata/valid/onidle.yaml"
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	cfg, err := Parse(file, data, nil)
	require.NoError(t, err)
	for _, name := range cfg.Names() {
		assert.NotNil(t, cfg.Procs[name].OnIdle, name)
	}
}
