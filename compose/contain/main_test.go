package contain

import (
	"os"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	RunWatchdogIfRequested()
	runSpawnHelperIfRequested()
	runShedProbeIfRequested()
	os.Exit(m.Run())
}

// waitLimit bounds every wait in these tests: generous, never a timing assertion.
const waitLimit = 20 * time.Second
