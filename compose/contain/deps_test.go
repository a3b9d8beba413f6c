package contain

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestContainImportsNoEngine keeps containment below the engine: it knows
// process trees and runs, not configs, states or the control plane.
func TestContainImportsNoEngine(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	require.NoError(t, err)
	for _, dep := range strings.Fields(string(out)) {
		require.NotEqual(t, "github.com/procsdev/procs/compose", dep, "compose/contain imports the engine")
		require.NotEqual(t, "github.com/procsdev/procs/compose/config", dep, "compose/contain imports the config")
		require.False(t, strings.HasPrefix(dep, "github.com/procsdev/procs/compose/control"), "compose/contain imports %s", dep)
	}
}
