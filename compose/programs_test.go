package compose

import (
	"net"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/internal/testenv"
)

// freePort returns a TCP port nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// needProgram looks each program up through testenv: a missing one skips
// the test, naming it (fails it under PROCS_REQUIRE_E2E=1).
func needProgram(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		testenv.LookPath(t, name)
	}
}
