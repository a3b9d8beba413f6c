package contain

import (
	"os"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	traceWatchdogIfRequested()
	RunWatchdogIfRequested()
	runSpawnHelperIfRequested()
	runShedProbeIfRequested()
	os.Exit(m.Run())
}

// waitLimit bounds every wait in these tests: generous, never a timing assertion.
const waitLimit = 20 * time.Second

// watchdogTraceVar makes the test binary, run as the watchdog, create the
// file it names first thing: the procs binary ran in the watchdog.
const watchdogTraceVar = "PROCS_TEST_WATCHDOG_TRACE"

func traceWatchdogIfRequested() {
	if os.Getenv(WatchdogVar) == "1" && os.Getenv(watchdogTraceVar) != "" {
		_ = os.WriteFile(os.Getenv(watchdogTraceVar), nil, 0o644)
	}
}
