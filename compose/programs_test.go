package compose

import (
	"net"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// freePort returns a TCP port nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// needProgram skips a test whose programs are not installed; under
// PROCS_REQUIRE_E2E=1 it fails instead.
func needProgram(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("PROCS_REQUIRE_E2E") != "" {
				t.Fatalf("%s is not installed (.ci/run installs it)", name)
			}
			t.Skipf("%s is not installed", name)
		}
	}
}
