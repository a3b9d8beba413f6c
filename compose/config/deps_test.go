package config

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConfigImportsNoEngine keeps the config side free of the engine and the
// control plane, so it can be loaded and diffed by any client.
func TestConfigImportsNoEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err)
	for _, dep := range strings.Fields(string(out)) {
		require.NotEqual(t, "github.com/procsdev/procs/compose", dep, "compose/config imports the engine")
		require.False(t, strings.HasPrefix(dep, "github.com/procsdev/procs/compose/control"), "compose/config imports %s", dep)
	}
}
