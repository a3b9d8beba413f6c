package lifecycle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/rules"
)

// TestInactiveProfileIsStoppedWithAReason checks that a process of
// profiles none of which is active is stopped, saying which profile to
// enable, not pending forever; and that an added one starts only when
// one of its profiles is active.
func TestInactiveProfileIsStoppedWithAReason(t *testing.T) {
	cfg := parse(t, `procs:
  api: {command: ./api}
  e2e: {command: ./e2e, profiles: [e2e, ci]}
  off: {command: ./off, profiles: [e2e], disabled: true}
`)
	order, err := cfg.StartOrder()
	require.NoError(t, err)
	wanted := map[string]bool{}
	for _, name := range cfg.UpSet(nil) {
		wanted[name] = true
	}
	m := New(cfg, order, wanted, nil, Options{})
	e2e := m.Proc("e2e")
	assert.Equal(t, rules.StateStopped, e2e.State)
	assert.Equal(t, rules.ReasonProfile, e2e.Reason)
	assert.Equal(t, "inactive (e2e, ci): procs up --profile e2e", e2e.Message)
	assert.Equal(t, rules.ReasonDisabled, m.Proc("off").Reason, "disabled says disabled")
	assert.Equal(t, rules.StatePending, m.Proc("api").State)

	active := New(cfg, order, map[string]bool{"api": true, "e2e": true}, nil, Options{Profiles: []string{"ci"}})
	assert.Equal(t, rules.StatePending, active.Proc("e2e").State)
}
