package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/procsdev/procs/rules"
)

// Every state a wait can end in has advice of its own. A process still
// stopping is not stopped: a restart whose wait ran out while the old run
// stopped goes on, and starting it again is the wrong advice.
func TestEveryStateHasItsNextStep(t *testing.T) {
	for _, state := range rules.States {
		if state == rules.StateReady {
			continue // the state asked for: no advice
		}
		assert.NotEqual(t, "call get_process for details.", nextStep(state, ""), "%s has no advice", state)
	}
	stopping := nextStep(rules.StateStopping, rules.ReasonRestart)
	assert.NotContains(t, stopping, "it is stopped")
	assert.Contains(t, stopping, "wait_for_ready")
}
