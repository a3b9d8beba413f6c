package compose

import (
	"bufio"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// engineHelperEnv makes the test binary act as a procs running one config.
const engineHelperEnv = "PROCS_TEST_ENGINE_CONFIG"

func waitForLine(t *testing.T, r interface{ Read([]byte) (int, error) }, want string) {
	t.Helper()
	found := make(chan bool, 1)
	go func() {
		s := bufio.NewScanner(r)
		for s.Scan() {
			if strings.TrimSpace(s.Text()) == want {
				found <- true
				return
			}
		}
		found <- false
	}()
	select {
	case ok := <-found:
		require.True(t, ok, "helper ended before printing %s", want)
	case <-time.After(waitLimit):
		t.Fatalf("no %s from helper", want)
	}
}
