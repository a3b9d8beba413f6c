package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose"
	"github.com/procsdev/procs/compose/config"
)

// TestOnIdleAcceptedByEngine: the processes config validation lets take
// onIdle, the engine takes too (its own check, at start and reload, sees
// the same settings). The refusals are config's alone: procs check says
// them with their place, before any engine.
func TestOnIdleAcceptedByEngine(t *testing.T) {
	data, err := os.ReadFile("../../compose/config/testdata/valid/onidle.yaml")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "procs.yaml")
	require.NoError(t, os.WriteFile(file, data, 0o644))
	cfg, err := config.Load(config.LoadOptions{File: file, Environ: []string{}})
	require.NoError(t, err)
	_, err = compose.New(cfg, compose.Options{NoWatchdog: true, LogDir: t.TempDir()})
	require.NoError(t, err, "every process of onidle.yaml is one the engine gives onIdle to")
}
