package lifecycle

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/procsdev/procs/compose/config"
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

const profilesConfig = `procs:
  api: {command: ./api}
  e2e: {command: ./e2e, profiles: [e2e], dependsOn: [stub]}
  stub: {command: ./stub, profiles: [debug]}
  probe: {kind: task, command: ./probe, profiles: [e2e], schedule: {every: 1h}}
  off: {command: ./off, profiles: [e2e], disabled: true}
  other: {command: ./other, profiles: [other]}
`

// TestAProfileActivatedOnARunningProcs: procs up --profile e2e on a procs
// started without it brings up what a fresh procs up --profile e2e would:
// the processes of e2e and their dependencies, whatever their profiles,
// start; its scheduled task is for the engine to schedule; a disabled one
// stays disabled, another profile stays inactive. Asked again, it starts
// nothing more.
func TestAProfileActivatedOnARunningProcs(t *testing.T) {
	cfg := parse(t, profilesConfig)
	order, err := cfg.StartOrder()
	require.NoError(t, err)
	upMachine := func(profiles []string) *Machine {
		wanted := map[string]bool{}
		for _, name := range cfg.UpSet(profiles) {
			wanted[name] = true
		}
		m := New(cfg, order, wanted, nil, Options{Profiles: profiles})
		m.Begin()
		m.Effects()
		return m
	}
	m := upMachine(nil)
	assert.False(t, m.UpSchedules(cfg.Procs["probe"]))

	rec, err := m.Reconcile(cfg, order, config.DiffConfigs(cfg, cfg), nil, Up{Profiles: []string{"e2e"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"stub", "e2e"}, rec.Started)
	var waits []string
	for _, w := range rec.Waits {
		waits = append(waits, fmt.Sprintf("%s run %d", w.Name, w.Run))
	}
	assert.Equal(t, []string{"stub run 1", "e2e run 1"}, waits)
	assert.Equal(t, []StartRun{{Name: "stub", Run: 1}}, effectsOf[StartRun](m.Effects()), "e2e waits for stub")
	assert.Equal(t, "started by procs up --profile e2e", m.Proc("e2e").Message)

	fresh := upMachine([]string{"e2e"})
	for _, name := range order {
		p := cfg.Procs[name]
		assert.Equal(t, fresh.UpSchedules(p), m.UpSchedules(p), name)
		assert.Equal(t, fresh.Proc(name).Wanted(), m.Proc(name).Wanted(), name)
	}
	assert.True(t, m.UpSchedules(cfg.Procs["probe"]))
	m.Scheduled("probe", "every 1h", true)
	assert.Equal(t, rules.ReasonScheduled, m.Proc("probe").Reason)
	assert.Equal(t, "scheduled: every 1h", m.Proc("probe").Message)
	assert.Equal(t, rules.ReasonDisabled, m.Proc("off").Reason)
	assert.Equal(t, rules.ReasonProfile, m.Proc("other").Reason)
	assert.Equal(t, "inactive (other): procs up --profile other", m.Proc("other").Message)

	rec, err = m.Reconcile(cfg, order, config.DiffConfigs(cfg, cfg), nil, Up{Profiles: []string{"e2e"}})
	require.NoError(t, err)
	assert.Empty(t, rec.Started)
	assert.Empty(t, m.Refused())
}
