package compose

import (
	"testing"

	"github.com/procsdev/procs/rules"
)

// deps.NAME in a ready rule is the state of that dependency, at the run's
// start and as it changes: the engine sent none, and a rule that read it
// was never true.
func TestAReadyRuleReadsItsDependencysState(t *testing.T) {
	te := startEngine(t, `
procs:
  db: {command: "echo up; sleep 60", readyPatterns: [up]}
  api:
    command: "echo hi; sleep 60"
    dependsOn: [db]
    ready: 'deps.db == "ready" && log.contains("hi")'
`, Options{NoWatchdog: true})
	te.waitState("api", rules.StateReady)
}
